#include "mtok/convert.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "common/utf8.h"
#include "convert/dict_vocab.h"
#include "convert/json_cursor.h"
#include "io/codes.h"

namespace mtok::convert {

namespace {

namespace code = codes::model;

// A model key's value when it is not vocab or merges.
struct Scalar {
  enum Kind { kNull, kBool, kNumber, kString, kOther } kind = kNull;
  bool b = false;
  bool fraction = false;
  std::string text;  // string contents, or the number's literal
};

bool ReadScalar(JsonCursor& c, Scalar* out) {
  char p = c.Peek();
  if (p == '"') {
    out->kind = Scalar::kString;
    return c.String(&out->text);
  }
  if (p == '{' || p == '[') {
    out->kind = Scalar::kOther;
    return c.Skip();
  }
  if (p == '-' || (p >= '0' && p <= '9')) {
    std::string_view t;
    out->kind = Scalar::kNumber;
    if (!c.Number(&t, &out->fraction)) return false;
    out->text.assign(t);
    return true;
  }
  std::string_view w;
  if (!c.Literal(&w)) return false;
  out->kind = w == "null" ? Scalar::kNull : Scalar::kBool;
  out->b = w == "true";
  return true;
}

// Python's truth value of the JSON value; false for values the fast path
// leaves to Python (arrays, objects).
bool Truthy(const Scalar* s, bool* value) {
  if (s == nullptr || s->kind == Scalar::kNull) return (*value = false), true;
  switch (s->kind) {
    case Scalar::kBool: *value = s->b; return true;
    case Scalar::kNumber: *value = SerdeF64(s->text) != 0.0; return true;
    case Scalar::kString: *value = !s->text.empty(); return true;
    default: return false;
  }
}

// `model.get(key) or ""` when that is a string.
bool TextOrEmpty(const Scalar* s, std::string* out) {
  bool truthy;
  if (!Truthy(s, &truthy)) return false;
  if (!truthy) return out->clear(), true;
  if (s->kind != Scalar::kString) return false;
  *out = s->text;
  return true;
}

// sorted_vocab(): ids are integers below 2^24, used once; no token twice.
bool ReadDictVocab(JsonCursor& c, DictVocab* v) {
  if (!c.BeginObject()) return false;
  std::string key;
  bool done, first = true;
  while (c.NextKey(&key, &done, &first)) {
    if (done) break;
    uint64_t id;
    if (!c.Unsigned(&id) || id >= kMaxTokenId || key.size() > 0xFFFF) return false;
    v->Add(key, static_cast<uint32_t>(id));
  }
  return done && v->Finish();
}

// b[n:] of a Python str: drops n code points.
std::string_view DropChars(std::string_view s, size_t n) {
  size_t i = 0;
  for (; n > 0 && i < s.size(); --n) i += utf8::seq_len(static_cast<unsigned char>(s[i]));
  return s.substr(std::min(i, s.size()));
}

struct Merge { uint64_t key; uint32_t rank, merged; };

// _bpe_merges(): (left id, right id) -> (rank, merged id), a repeated pair
// keeping its last rank; sorted by pair.
bool ReadMerges(JsonCursor& c, const DictVocab& v, size_t prefix_chars, std::vector<Merge>* out) {
  if (!c.BeginArray()) return false;
  std::string a, b, merged;
  bool done, first = true;
  uint32_t rank = 0;
  while (c.NextElement(&done, &first)) {
    if (done) break;
    if (c.Peek() == '"') {
      if (!c.String(&a)) return false;
      size_t sp = a.find(' ');
      if (sp == std::string::npos || a.find(' ', sp + 1) != std::string::npos) return false;
      b.assign(a, sp + 1, std::string::npos);
      a.resize(sp);
    } else {
      bool d2, f2 = true;
      if (!c.BeginArray() || !c.NextElement(&d2, &f2) || d2 || !c.String(&a) ||
          !c.NextElement(&d2, &f2) || d2 || !c.String(&b) || !c.NextElement(&d2, &f2) || !d2)
        return false;
    }
    const uint32_t* left = v.Find(a);
    const uint32_t* right = v.Find(b);
    if (!left || !right) return false;
    merged.assign(a);
    merged += DropChars(b, prefix_chars);
    const uint32_t* m = v.Find(merged);
    if (!m) return false;
    out->push_back({uint64_t{*left} << 32 | *right, rank++, *m});
  }
  if (!done) return false;
  std::stable_sort(out->begin(), out->end(), [](const Merge& x, const Merge& y) { return x.key < y.key; });
  size_t kept = 0;
  for (size_t i = 0; i < out->size(); ++i) {
    if (i + 1 < out->size() && (*out)[i + 1].key == (*out)[i].key) continue;  // the last rank wins
    (*out)[kept++] = (*out)[i];
  }
  out->resize(kept);
  return true;
}

using Scalars = std::map<std::string, Scalar>;

const Scalar* Get(const Scalars& s, const char* key) {
  auto it = s.find(key);
  return it == s.end() ? nullptr : &it->second;
}

bool WriteBpe(JsonCursor vocab_at, const JsonCursor* merges_at, const Scalars& s, const DictVocab** vocab_out,
              DictVocab* v, Sink* w) {
  if (!ReadDictVocab(vocab_at, v)) return false;
  *vocab_out = v;
  const Scalar* dropout = Get(s, "dropout");
  if (dropout && dropout->kind != Scalar::kNull &&
      !(dropout->kind == Scalar::kBool && !dropout->b) &&
      !(dropout->kind == Scalar::kNumber && SerdeF64(dropout->text) == 0.0))
    return false;
  std::string prefix, suffix;
  if (!TextOrEmpty(Get(s, "continuing_subword_prefix"), &prefix) ||
      !TextOrEmpty(Get(s, "end_of_word_suffix"), &suffix))
    return false;
  std::vector<Merge> merges;
  if (merges_at) {
    JsonCursor m = *merges_at;
    if (!ReadMerges(m, *v, utf8::count_chars(prefix), &merges)) return false;
  }
  const Scalar* unk = Get(s, "unk_token");
  const uint32_t* unk_id = nullptr;
  if (unk && unk->kind != Scalar::kNull) {
    if (unk->kind != Scalar::kString || !(unk_id = v->Find(unk->text))) return false;
  }
  bool ignore_merges, fuse_unk, byte_fallback;
  if (!Truthy(Get(s, "ignore_merges"), &ignore_merges) || !Truthy(Get(s, "fuse_unk"), &fuse_unk) ||
      !Truthy(Get(s, "byte_fallback"), &byte_fallback))
    return false;
  bool full = ignore_merges || unk_id || !prefix.empty() || !suffix.empty() || fuse_unk;
  w->u8(full ? code::kBpeFull : code::kBpe);
  w->u32(static_cast<uint32_t>(v->entries.size()));
  w->u8(byte_fallback);
  w->u8(0);  // byte_level: mtok pipelines map bytes in the ByteLevel pre-tokenizer
  w->u32(static_cast<uint32_t>(merges.size()));
  if (full) {
    uint8_t flags = (ignore_merges ? code::kBpeIgnoreMerges : 0) | (fuse_unk ? code::kBpeFuseUnk : 0) |
                    (unk_id ? code::kBpeHasUnk : 0);
    w->u8(flags);
    w->u32(unk_id ? *unk_id : 0);
    if (!w->str(prefix) || !w->str(suffix)) return false;
  }
  if (!WriteDictEntries(*v, w)) return false;
  for (const auto& m : merges) {
    w->u32(static_cast<uint32_t>(m.key >> 32));
    w->u32(static_cast<uint32_t>(m.key));
    w->u32(m.rank);
    if (full) w->u32(m.merged);
  }
  return true;
}

bool WriteWordPiece(JsonCursor vocab_at, const Scalars& s, const DictVocab** vocab_out, DictVocab* v,
                    Sink* w) {
  if (!ReadDictVocab(vocab_at, v)) return false;
  *vocab_out = v;
  const Scalar* unk = Get(s, "unk_token");
  const Scalar* prefix = Get(s, "continuing_subword_prefix");
  const Scalar* max_chars = Get(s, "max_input_chars_per_word");
  std::string unk_text = unk ? unk->text : "[UNK]";
  if ((unk && unk->kind != Scalar::kString) || !v->Find(unk_text)) return false;
  if (prefix && prefix->kind != Scalar::kString) return false;
  uint64_t limit = 100;
  if (max_chars) {
    if (max_chars->kind != Scalar::kNumber || max_chars->fraction || max_chars->text[0] == '-' ||
        max_chars->text.size() > 9)
      return false;
    limit = std::stoull(max_chars->text);
  }
  w->u8(code::kWordPiece);
  w->u32(static_cast<uint32_t>(v->entries.size()));
  if (!w->str(unk_text) || !w->str(prefix ? prefix->text : "##")) return false;
  w->u32(static_cast<uint32_t>(limit));
  return WriteDictEntries(*v, w);
}

bool WriteUnigram(JsonCursor c, const Scalars& s, Sink* w) {
  struct Piece { uint32_t offset, size, id; double score; };
  std::string arena, token;
  std::vector<Piece> pieces;
  if (!c.BeginArray()) return false;
  bool done, first = true;
  while (c.NextElement(&done, &first)) {
    if (done) break;
    bool d2, f2 = true, fraction;
    std::string_view number;
    if (!c.BeginArray() || !c.NextElement(&d2, &f2) || d2 || !c.String(&token) || token.empty() ||
        token.size() > 0xFFFF || !c.NextElement(&d2, &f2) || d2 || !c.Number(&number, &fraction) ||
        !c.NextElement(&d2, &f2) || !d2)
      return false;
    // An integer score is float(int): exact below 2^53.
    if (!fraction && number.size() > 15) return false;
    double score = SerdeF64(number);
    pieces.push_back({static_cast<uint32_t>(arena.size()), static_cast<uint32_t>(token.size()),
                      static_cast<uint32_t>(pieces.size()), score});
    arena += token;
    if (pieces.size() > kMaxTokenId) return false;
  }
  if (!done || pieces.empty()) return false;
  const Scalar* unk = Get(s, "unk_id");
  if (!unk || unk->kind != Scalar::kNumber || unk->fraction || unk->text[0] == '-' || unk->text.size() > 9)
    return false;
  uint64_t unk_id = std::stoull(unk->text);
  if (unk_id >= pieces.size()) return false;
  bool byte_fallback;
  if (!Truthy(Get(s, "byte_fallback"), &byte_fallback)) return false;
  auto text = [&](const Piece& p) { return std::string_view(arena.data() + p.offset, p.size); };
  std::sort(pieces.begin(), pieces.end(), [&](const Piece& a, const Piece& b) {
    int cmp = text(a).compare(text(b));
    return cmp != 0 ? cmp < 0 : a.id < b.id;
  });
  w->u8(code::kUnigram);
  w->u32(static_cast<uint32_t>(pieces.size()));
  w->u32(static_cast<uint32_t>(unk_id));
  w->u8(byte_fallback);
  for (const auto& p : pieces) {
    w->str(text(p));
    w->u32(p.id);
    w->f64(p.score);
  }
  return true;
}

const char* const kScalarKeys[] = {"type", "dropout", "unk_token", "unk_id", "continuing_subword_prefix",
                                   "end_of_word_suffix", "fuse_unk", "byte_fallback", "ignore_merges",
                                   "max_input_chars_per_word"};

bool ConvertModel(std::string_view json, JsonCursor& c, const std::vector<std::string>& lookups,
                  HfModel* out) {
  if (!c.BeginObject()) return false;
  Scalars scalars;
  JsonCursor vocab_at(json), merges_at(json);
  bool has_vocab = false, has_merges = false, vocab_is_list = false;
  std::string key;
  bool done, first = true;
  while (c.NextKey(&key, &done, &first)) {
    if (done) break;
    if (key == "vocab" || key == "merges") {
      bool& seen = key == "vocab" ? has_vocab : has_merges;
      if (seen) return false;
      seen = true;
      c.Peek();
      (key == "vocab" ? vocab_at : merges_at) = JsonCursor(json, c.pos());
      if (key == "vocab") vocab_is_list = c.Peek() == '[';
      if (!c.Skip()) return false;
      continue;
    }
    if (key.compare(0, 4, "mtok") == 0) return false;  // mtok's own keys change what is written
    bool known = std::any_of(std::begin(kScalarKeys), std::end(kScalarKeys),
                             [&](const char* k) { return key == k; });
    Scalar value;
    if (!ReadScalar(c, &value)) return false;
    if (known && !scalars.emplace(key, std::move(value)).second) return false;
  }
  if (!done || !has_vocab) return false;
  // infer_model_type()
  const Scalar* type = Get(scalars, "type");
  if (type) {
    if (type->kind != Scalar::kString) return false;
    out->type = type->text;
  } else if (vocab_is_list) {
    out->type = "Unigram";
  } else if (has_merges) {
    out->type = "BPE";
  } else if (Get(scalars, "continuing_subword_prefix") || Get(scalars, "max_input_chars_per_word")) {
    out->type = "WordPiece";
  } else {
    return false;
  }
  Sink w;
  DictVocab dict;
  const DictVocab* vocab = nullptr;
  bool ok = out->type == "BPE"         ? WriteBpe(vocab_at, has_merges ? &merges_at : nullptr, scalars, &vocab,
                                                  &dict, &w)
            : out->type == "WordPiece" ? WriteWordPiece(vocab_at, scalars, &vocab, &dict, &w)
            : out->type == "Unigram"   ? WriteUnigram(vocab_at, scalars, &w)
                                       : false;
  if (!ok) return false;
  out->section = std::move(w.out);
  out->looked_up.clear();
  for (const auto& t : lookups) {
    const uint32_t* id = vocab ? vocab->Find(t) : nullptr;
    out->looked_up.push_back(id ? int64_t{*id} : -1);
  }
  return true;
}

}  // namespace

bool ConvertHfModel(std::string_view json, const std::vector<std::string>& lookups, HfModel* out) {
  JsonCursor c(json);
  if (!c.BeginObject()) return false;
  std::string key;
  bool done, first = true, found = false;
  while (c.NextKey(&key, &done, &first)) {
    if (done) break;
    if (key != "model") {
      if (!c.Skip()) return false;
      continue;
    }
    if (found) return false;
    found = true;
    c.Peek();
    out->begin = c.pos();
    if (!ConvertModel(json, c, lookups, out)) return false;
    out->end = c.pos();
    size_t bad;
    if (!utf8::validate(json.substr(out->begin, out->end - out->begin), &bad)) return false;
  }
  return done && found && c.AtEnd();
}

}  // namespace mtok::convert
