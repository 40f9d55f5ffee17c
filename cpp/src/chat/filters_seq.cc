// jinja2's builtin filters on sequences and mappings.
#include <algorithm>

#include "chat/errors.h"
#include "chat/filters.h"
#include "chat/pystr.h"

namespace mtok::chat {

Value GetPath(Interpreter& in, const Value& obj, const Value& attribute) {
  if (!attribute.is_string()) return in.GetItem(obj, attribute);
  Value cur = obj;
  const std::string& path = attribute.s();
  size_t start = 0;
  while (true) {
    size_t dot = path.find('.', start);
    std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    bool digits = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
    cur = in.GetItem(cur, digits ? Value::Int(std::stoll(part)) : Value::Str(part));
    if (dot == std::string::npos) return cur;
    start = dot + 1;
  }
}

void SortValues(std::vector<std::pair<Value, Value>>* keyed, bool reverse) {
  // Python's sort is stable in both directions: reverse=True keeps equal
  // items in their original order.
  std::stable_sort(keyed->begin(), keyed->end(), [reverse](const auto& a, const auto& b) {
    return reverse ? Less(b.first, a.first) : Less(a.first, b.first);
  });
}

namespace {

Value IgnoreCase(const Value& v) { return v.is_string() ? Value::Str(PyLower(v.s())) : v; }

bool CaseSensitive(const CallArgs& a, size_t pos) {
  const Value* v = Param(a, pos, "case_sensitive");
  return v && Truthy(*v);
}

Value ToList(Interpreter& in, const Value& v, const CallArgs&) { return Value::MakeList(in.Iterate(v)); }

Value First(Interpreter& in, const Value& v, const CallArgs&) {
  List items = in.Iterate(v);
  return items.empty() ? Value::Undefined("No first item, sequence was empty.") : items.front();
}

Value Last(Interpreter& in, const Value& v, const CallArgs&) {
  if (v.iterator) TypeFail("'generator' object is not reversible");
  List items = in.Iterate(v);
  return items.empty() ? Value::Undefined("No last item, sequence was empty.") : items.back();
}

Value Join(Interpreter& in, const Value& v, const CallArgs& a) {
  const Value* d = Param(a, 0, "d");
  const Value* attribute = Param(a, 1, "attribute");
  std::string sep = d ? ToStr(*d) : "";
  std::string out;
  List items = in.Iterate(v);
  for (size_t k = 0; k < items.size(); ++k) {
    if (k) out += sep;
    out += ToStr(attribute && !attribute->is_none() ? GetPath(in, items[k], *attribute) : items[k]);
    in.CheckLength(out.size(), "str");
  }
  return Value::Str(std::move(out));
}

// map(attribute=...) or map('filter', args...).
Value Map(Interpreter& in, const Value& v, const CallArgs& a) {
  if (a.positional.empty() && !a.Named("attribute")) Fail("FilterArgumentError", "map requires a filter argument");
  if (!Truthy(v)) return Generator({});  // jinja2: `if value:` before iterating
  List items = in.Iterate(v);
  List out;
  if (a.positional.empty()) {
    const Value* attribute = a.Named("attribute");
    const Value* dflt = a.Named("default");
    for (const Value& item : items) {
      Value x = GetPath(in, item, *attribute);
      out.push_back(x.is_undefined() && dflt ? *dflt : x);
    }
    return Generator(std::move(out));
  }
  if (!a.positional[0].is_string()) TypeFail("map() filter name must be a string");
  std::string filter = a.positional[0].s();
  CallArgs rest;
  rest.positional.assign(a.positional.begin() + 1, a.positional.end());
  rest.named = a.named;
  for (const Value& item : items) out.push_back(in.ApplyFilter(filter, item, rest, true));
  return Generator(std::move(out));
}

// select/reject/selectattr/rejectattr.
Value SelectOrReject(Interpreter& in, const Value& v, const CallArgs& a, bool attr, bool keep) {
  if (!Truthy(v)) return Generator({});  // jinja2: `if value:` before iterating
  List items = in.Iterate(v);
  size_t at = 0;
  Value attribute;
  if (attr) {
    if (a.positional.empty()) TypeFail("selectattr/rejectattr need an attribute name");
    attribute = a.positional[at++];
  }
  std::string test;
  CallArgs rest;
  if (at < a.positional.size()) {
    test = ToStr(a.positional[at++]);
    rest.positional.assign(a.positional.begin() + at, a.positional.end());
    rest.named = a.named;
  }
  List out;
  for (const Value& item : items) {
    Value x = attr ? GetPath(in, item, attribute) : item;
    bool ok = test.empty() ? Truthy(x) : in.RunTest(test, x, rest, true);
    if (ok == keep) out.push_back(item);
  }
  return Generator(std::move(out));
}
Value Select(Interpreter& in, const Value& v, const CallArgs& a) { return SelectOrReject(in, v, a, false, true); }
Value Reject(Interpreter& in, const Value& v, const CallArgs& a) { return SelectOrReject(in, v, a, false, false); }
Value SelectAttr(Interpreter& in, const Value& v, const CallArgs& a) { return SelectOrReject(in, v, a, true, true); }
Value RejectAttr(Interpreter& in, const Value& v, const CallArgs& a) { return SelectOrReject(in, v, a, true, false); }

Value Items(Interpreter&, const Value& v, const CallArgs&) {
  if (v.is_undefined()) return Generator({});
  if (!v.is_dict()) TypeFail("Can only get item pairs from a mapping.");
  List out;
  for (const auto& kv : v.dict().items) out.push_back(Value::MakeTuple({kv.first, kv.second}));
  return Generator(std::move(out));
}

Value Dictsort(Interpreter&, const Value& v, const CallArgs& a) {
  if (!v.is_dict()) {
    if (v.is_undefined()) UndefinedFail(v);
    Fail("AttributeError", StrRepr(TypeName(v)) + " object has no attribute 'items'");
  }
  bool cs = CaseSensitive(a, 0);
  const Value* by = Param(a, 1, "by");
  const Value* reverse = Param(a, 2, "reverse");
  int pos = 0;
  if (by && by->is_string()) {
    if (by->s() == "value") pos = 1;
    else if (by->s() != "key") Fail("FilterArgumentError", "You can only sort by either \"key\" or \"value\"");
  }
  std::vector<std::pair<Value, Value>> keyed;
  for (const auto& kv : v.dict().items) {
    const Value& key = pos == 0 ? kv.first : kv.second;
    keyed.emplace_back(cs ? key : IgnoreCase(key), Value::MakeTuple({kv.first, kv.second}));
  }
  SortValues(&keyed, reverse && Truthy(*reverse));
  List out;
  for (auto& kv : keyed) out.push_back(std::move(kv.second));
  return Value::MakeList(std::move(out));
}

Value Sort(Interpreter& in, const Value& v, const CallArgs& a) {
  const Value* reverse = Param(a, 0, "reverse");
  bool cs = CaseSensitive(a, 1);
  const Value* attribute = Param(a, 2, "attribute");
  std::vector<std::pair<Value, Value>> keyed;
  for (const Value& item : in.Iterate(v)) {
    Value key = attribute && !attribute->is_none() ? GetPath(in, item, *attribute) : item;
    keyed.emplace_back(cs ? key : IgnoreCase(key), item);
  }
  SortValues(&keyed, reverse && Truthy(*reverse));
  List out;
  for (auto& kv : keyed) out.push_back(std::move(kv.second));
  return Value::MakeList(std::move(out));
}

Value Unique(Interpreter& in, const Value& v, const CallArgs& a) {
  bool cs = CaseSensitive(a, 0);
  const Value* attribute = Param(a, 1, "attribute");
  List seen, out;
  for (const Value& item : in.Iterate(v)) {
    Value key = attribute && !attribute->is_none() ? GetPath(in, item, *attribute) : item;
    if (!cs) key = IgnoreCase(key);
    if (key.kind == Kind::kList || key.is_dict()) TypeFail("unhashable type: '" + TypeName(key) + "'");
    if (Contains(Value::MakeList(seen), key)) continue;
    seen.push_back(key);
    out.push_back(item);
  }
  return Generator(std::move(out));
}

Value Reverse(Interpreter& in, const Value& v, const CallArgs&) {
  if (v.is_string()) return SliceValue(v, Value::None(), Value::None(), Value::Int(-1));
  if (v.iterator) TypeFail("argument to reversed() must be a sequence");
  List items = in.Iterate(v);
  std::reverse(items.begin(), items.end());
  return v.is_list_like() ? Generator(std::move(items)) : Value::MakeList(std::move(items));
}

Value Sum(Interpreter& in, const Value& v, const CallArgs& a) {
  const Value* attribute = Param(a, 0, "attribute");
  const Value* start = Param(a, 1, "start");
  Value total = start ? *start : Value::Int(0);
  for (const Value& item : in.Iterate(v)) {
    total = BinaryOp(in, "+", total, attribute && !attribute->is_none() ? GetPath(in, item, *attribute) : item);
  }
  return total;
}

Value MinMax(Interpreter& in, const Value& v, const CallArgs& a, bool max) {
  bool cs = CaseSensitive(a, 0);
  const Value* attribute = Param(a, 1, "attribute");
  List items = in.Iterate(v);
  if (items.empty()) return Value::Undefined(std::string("No aggregated item, sequence was empty."));
  size_t best = 0;
  Value best_key;
  for (size_t k = 0; k < items.size(); ++k) {
    Value key = attribute && !attribute->is_none() ? GetPath(in, items[k], *attribute) : items[k];
    if (!cs) key = IgnoreCase(key);
    if (k == 0 || (max ? Less(best_key, key) : Less(key, best_key))) {
      best = k;
      best_key = key;
    }
  }
  return items[best];
}
Value Min(Interpreter& in, const Value& v, const CallArgs& a) { return MinMax(in, v, a, false); }
Value Max(Interpreter& in, const Value& v, const CallArgs& a) { return MinMax(in, v, a, true); }

Value Batch(Interpreter& in, const Value& v, const CallArgs& a) {
  const Value* count = Param(a, 0, "linecount");
  const Value* fill = Param(a, 1, "fill_with");
  if (!count || !count->is_integral() || count->as_int() <= 0) Fail("ValueError", "batch size must be a positive integer");
  size_t n = static_cast<size_t>(count->as_int());
  List out, cur;
  for (const Value& item : in.Iterate(v)) {
    cur.push_back(item);
    if (cur.size() == n) {
      out.push_back(Value::MakeList(std::move(cur)));
      cur.clear();
    }
  }
  if (!cur.empty()) {
    if (fill && !fill->is_none()) {
      while (cur.size() < n) cur.push_back(*fill);
    }
    out.push_back(Value::MakeList(std::move(cur)));
  }
  return Generator(std::move(out));
}

struct Entry {
  const char* name;
  FilterFn fn;
};

const Entry kSequenceFilters[] = {
    {"list", ToList}, {"first", First},         {"last", Last},     {"join", Join},         {"map", Map},
    {"select", Select}, {"reject", Reject},     {"selectattr", SelectAttr}, {"rejectattr", RejectAttr},
    {"items", Items}, {"dictsort", Dictsort},   {"sort", Sort},     {"unique", Unique},     {"reverse", Reverse},
    {"sum", Sum},     {"min", Min},             {"max", Max},       {"batch", Batch},
};

}  // namespace

FilterFn FindSequenceFilter(const std::string& name) {
  for (const Entry& e : kSequenceFilters) {
    if (name == e.name) return e.fn;
  }
  return nullptr;
}

}  // namespace mtok::chat
