// json.dumps as CPython writes it (the tojson filter of the chat
// environment is plain json.dumps, ensure_ascii=False by default).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "chat/errors.h"
#include "chat/json.h"
#include "chat/pystr.h"
#include "common/utf8.h"

namespace mtok::chat {
namespace {

void AppendUnicodeEscape(std::string* out, unsigned cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\u%04x", cp & 0xFFFF);
  out->append(buf);
}

void WriteString(std::string_view s, bool ensure_ascii, std::string* out) {
  out->push_back('"');
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      int len = 1;
      char32_t cp = utf8::decode(s, i, &len);
      if (!ensure_ascii) {
        out->append(s.substr(i, len));
      } else if (cp >= 0x10000) {
        cp -= 0x10000;
        AppendUnicodeEscape(out, 0xD800 + (cp >> 10));
        AppendUnicodeEscape(out, 0xDC00 + (cp & 0x3FF));
      } else {
        AppendUnicodeEscape(out, cp);
      }
      i += len;
      continue;
    }
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default:
        if (c < 0x20 || (ensure_ascii && c == 0x7F)) {
          AppendUnicodeEscape(out, c);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out->push_back('"');
}

std::string FloatJson(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d < 0 ? "-Infinity" : "Infinity";
  return FloatRepr(d);
}

[[noreturn]] void NotSerializable(const Value& v) {
  TypeFail("Object of type " + TypeName(v) + " is not JSON serializable");
}

// A dict key as json.dumps converts it; false for unsupported key types.
bool KeyText(const Value& key, std::string* out) {
  switch (key.kind) {
    case Kind::kString: *out = key.s(); return true;
    case Kind::kBool: *out = key.b ? "true" : "false"; return true;
    case Kind::kNone: *out = "null"; return true;
    case Kind::kInt: *out = std::to_string(key.i); return true;
    case Kind::kFloat: *out = FloatJson(key.f); return true;
    default: return false;
  }
}

// Python's < for sort_keys (str with str, numbers with numbers).
bool KeyLess(const Value& a, const Value& b) {
  if (a.is_string() && b.is_string()) return a.s() < b.s();
  if (a.is_number() && b.is_number()) return a.as_double() < b.as_double();
  TypeFail("'<' not supported between instances of '" + TypeName(b) + "' and '" + TypeName(a) + "'");
}

class Writer {
 public:
  explicit Writer(const JsonDumpOptions& o) : o_(o) {}

  void Write(const Value& v, int level, std::string* out) {
    if (level > kMaxJsonDepth) Fail("RecursionError", "maximum recursion depth exceeded while encoding a JSON object");
    switch (v.kind) {
      case Kind::kNone: out->append("null"); return;
      case Kind::kBool: out->append(v.b ? "true" : "false"); return;
      case Kind::kInt: out->append(std::to_string(v.i)); return;
      case Kind::kFloat: out->append(FloatJson(v.f)); return;
      case Kind::kString: WriteString(v.s(), o_.ensure_ascii, out); return;
      case Kind::kList:
      case Kind::kTuple:
        if (v.iterator || v.range) NotSerializable(v);
        WriteList(v.list(), level, out);
        return;
      case Kind::kDict: WriteDict(v.dict(), level, out); return;
      default: NotSerializable(v);
    }
  }

 private:
  void Newline(int level, std::string* out) {
    out->push_back('\n');
    for (int k = 0; k < level; ++k) out->append(o_.indent);
  }

  void WriteList(const List& items, int level, std::string* out) {
    if (items.empty()) {
      out->append("[]");
      return;
    }
    out->push_back('[');
    if (o_.has_indent) Newline(level + 1, out);
    for (size_t k = 0; k < items.size(); ++k) {
      if (k) {
        out->append(o_.item_separator);
        if (o_.has_indent) Newline(level + 1, out);
      }
      Write(items[k], level + 1, out);
    }
    if (o_.has_indent) Newline(level, out);
    out->push_back(']');
  }

  void WriteDict(const Dict& dict, int level, std::string* out) {
    if (dict.size() == 0) {
      out->append("{}");
      return;
    }
    std::vector<const std::pair<Value, Value>*> items;
    for (const auto& kv : dict.items) items.push_back(&kv);
    if (o_.sort_keys) {
      std::stable_sort(items.begin(), items.end(),
                       [](const auto* a, const auto* b) { return KeyLess(a->first, b->first); });
    }
    out->push_back('{');
    if (o_.has_indent) Newline(level + 1, out);
    bool first = true;
    for (const auto* kv : items) {
      std::string key;
      if (!KeyText(kv->first, &key)) {
        TypeFail("keys must be str, int, float, bool or None, not " + TypeName(kv->first));
      }
      if (!first) {
        out->append(o_.item_separator);
        if (o_.has_indent) Newline(level + 1, out);
      }
      first = false;
      WriteString(key, o_.ensure_ascii, out);
      out->append(o_.key_separator);
      Write(kv->second, level + 1, out);
    }
    if (o_.has_indent) Newline(level, out);
    out->push_back('}');
  }

  const JsonDumpOptions& o_;
};

}  // namespace

std::string DumpJson(const Value& value, const JsonDumpOptions& options) {
  std::string out;
  Writer(options).Write(value, 0, &out);
  return out;
}

}  // namespace mtok::chat
