// The converter's fast path for SentencePiece .model files: the ModelProto
// wire format read in place (only the fields src/mtok/convert/
// sentencepiece_proto.py declares), and the model section written as
// src/mtok/format/models.py writes it.
#include <algorithm>
#include <cstring>

#include "common/sort_by_bytes.h"
#include "common/utf8.h"
#include "convert/dict_vocab.h"
#include "convert/sp_pieces.h"
#include "io/codes.h"
#include "mtok/convert.h"

namespace mtok::convert {

namespace {

namespace code = codes::model;
constexpr uint32_t kNormal = 1, kUnknown = 2, kControl = 3, kUserDefined = 4;

// A protobuf message's bytes, read field by field.
class Wire {
 public:
  explicit Wire(std::string_view s) : s_(s) {}
  bool Done() const { return pos_ >= s_.size(); }

  bool Varint(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= s_.size()) return false;
      uint8_t b = static_cast<uint8_t>(s_[pos_++]);
      *v |= uint64_t{b & 0x7Fu} << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  // The next field when it has the one-byte key `key` and is one of the
  // shapes SentencePiece writes: length-delimited with a length of at most
  // two varint bytes (UsualBytes), four fixed bytes (UsualFixed32) or a
  // one-byte varint (UsualByte). False, nothing read, otherwise (then Field).
  bool UsualBytes(uint8_t key, std::string_view* bytes) {
    const auto* b = At(key, 2);
    if (b == nullptr) return false;
    size_t len = b[1], at = pos_ + 2;
    if (len & 0x80) {
      if (at == s_.size() || (b[2] & 0x80)) return false;
      len = (len & 0x7F) | size_t{b[2]} << 7;
      ++at;
    }
    if (len > s_.size() - at) return false;
    *bytes = s_.substr(at, len);
    pos_ = at + len;
    return true;
  }
  bool UsualFixed32(uint8_t key, uint32_t* v) {
    const auto* b = At(key, 5);
    if (b == nullptr) return false;
    std::memcpy(v, b + 1, 4);
    pos_ += 5;
    return true;
  }
  bool UsualByte(uint8_t key, uint8_t* v) {
    const auto* b = At(key, 2);
    if (b == nullptr || (b[1] & 0x80)) return false;
    *v = b[1];
    pos_ += 2;
    return true;
  }
  // The next field: its number and wire type; a length-delimited payload in *bytes.
  bool Field(uint32_t* number, uint32_t* type, uint64_t* value, std::string_view* bytes) {
    uint64_t key;
    if (!Varint(&key) || (key >> 3) == 0 || (key >> 3) > 0x1FFFFFFF) return false;
    *number = static_cast<uint32_t>(key >> 3);
    *type = static_cast<uint32_t>(key & 7);
    switch (*type) {
      case 0: return Varint(value);
      case 1: return Fixed(8, value);
      case 5: return Fixed(4, value);
      case 2: {
        uint64_t n;
        if (!Varint(&n) || n > s_.size() - pos_) return false;
        *bytes = s_.substr(pos_, n);
        pos_ += n;
        return true;
      }
      default: return false;  // groups (3, 4) and reserved types
    }
  }

 private:
  bool Fixed(size_t n, uint64_t* v) {
    if (s_.size() - pos_ < n) return false;
    *v = 0;
    std::memcpy(v, s_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  // The bytes from here when `need` of them remain and the first is `key`.
  const uint8_t* At(uint8_t key, size_t need) const {
    const auto* b = reinterpret_cast<const uint8_t*>(s_.data()) + pos_;
    return s_.size() - pos_ >= need && b[0] == key ? b : nullptr;
  }
  std::string_view s_;
  size_t pos_ = 0;
};

// Calls f(number, wire type, value, bytes) for each field of a message;
// false on a malformed message or when f is.
template <typename F>
bool ForEachField(std::string_view msg, F f) {
  Wire w(msg);
  uint32_t n, t;
  uint64_t v;
  std::string_view b;
  while (!w.Done()) {
    if (!w.Field(&n, &t, &v, &b) || !f(n, t, v, b)) return false;
  }
  return true;
}

bool Utf8(std::string_view s) {
  size_t bad;
  return utf8::validate(s, &bad);
}

// A piece's text: most are the word mark U+2581 then a few ASCII bytes,
// checked here without the state machine (a third of a BPE vocab's read).
bool PieceUtf8(std::string_view s) {
  if (s.size() >= 3 && s.compare(0, 3, "\xE2\x96\x81") == 0) s.remove_prefix(3);
  if (s.size() <= 16) {
    unsigned char any = 0;
    for (const char c : s) any |= static_cast<unsigned char>(c);
    if (any < 0x80) return true;
  }
  return Utf8(s);
}

struct Piece {
  std::string_view text;
  float score = 0;
  uint32_t type = kNormal;
};

bool ReadPiece(std::string_view msg, Piece* p) {
  return ForEachField(msg, [&](uint32_t n, uint32_t t, uint64_t v, std::string_view b) {
    if (n == 1 && t == 2) {
      p->text = b;
    } else if (n == 2 && t == 5) {
      uint32_t bits = static_cast<uint32_t>(v);
      std::memcpy(&p->score, &bits, 4);
    } else if (n == 3 && t == 0) {
      if (v < 1 || v > 6) return false;  // an unknown enum value: protobuf keeps the default
      p->type = static_cast<uint32_t>(v);
    } else if (n <= 3) {
      return false;  // a known field with another wire type (packed, ...)
    }
    return true;
  });
}

// A piece as SentencePiece writes it: [0x0A len text][0x15 f32 score]
// [0x18 type], each optional, in that order, the length a varint of at
// most two bytes and the type one byte. Read without the field loop,
// which was the reader's largest cost; false for any other layout, which
// ReadPiece then reads (it takes all that protobuf allows).
bool ReadUsualPiece(std::string_view msg, Piece* p) {
  Wire w(msg);
  uint32_t bits;
  uint8_t type;
  w.UsualBytes(0x0A, &p->text);
  if (w.UsualFixed32(0x15, &bits)) std::memcpy(&p->score, &bits, 4);
  if (w.UsualByte(0x18, &type)) {
    if (type < 1 || type > 6) return false;
    p->type = type;
  }
  return w.Done();
}

bool ReadTrainer(std::string_view msg, SpModel* out, uint64_t* model_type) {
  auto i32 = [](uint64_t x) { return static_cast<int32_t>(static_cast<uint32_t>(x)); };
  return ForEachField(msg, [&](uint32_t n, uint32_t t, uint64_t v, std::string_view b) {
    bool varint = t == 0;
    switch (n) {
      case 3: if (!varint) return false; *model_type = v; break;
      case 24: if (!varint) return false; out->treat_whitespace_as_suffix = v != 0; break;
      case 35: if (!varint) return false; out->byte_fallback = v != 0; break;
      case 41: if (!varint) return false; out->bos_id = i32(v); break;
      case 42: if (!varint) return false; out->eos_id = i32(v); break;
      case 44:
        if (t != 2 || !Utf8(b)) return false;
        out->unk_surface.assign(b);
        break;
      case 4: case 25: case 40: case 43:
        if (!varint) return false;
        break;
      default: break;
    }
    return true;
  });
}

bool ReadNormalizer(std::string_view msg, SpModel* out, bool* has_charsmap) {
  return ForEachField(msg, [&](uint32_t n, uint32_t t, uint64_t v, std::string_view b) {
    if (n == 1) {
      if (t != 2 || !Utf8(b)) return false;
    } else if (n == 2) {
      if (t != 2) return false;
      if (out) out->precompiled_charsmap = b;
      *has_charsmap = !b.empty();
    } else if (n >= 3 && n <= 5) {
      if (t != 0) return false;
      if (out) {
        bool& flag = n == 3 ? out->add_dummy_prefix : n == 4 ? out->remove_extra_whitespaces
                                                             : out->escape_whitespaces;
        flag = v != 0;
      }
    }
    return true;
  });
}

}  // namespace

bool ReadSpModel(std::string_view proto, SpModel* out, SpPieces* read) {
  if (proto.size() > UINT32_MAX) return false;  // piece offsets are u32
  read->proto = proto;
  std::vector<PackedPiece>& pieces = read->pieces;
  uint64_t& model_type = read->model_type;
  bool charsmap = false, denormalizer = false;
  size_t unknowns = 0;
  auto field = [&](uint32_t n, uint32_t t, std::string_view b) {
    if (n >= 1 && n <= 3 && t != 2) return false;
    if (n == 5 && t != 2) return false;
    if (n == 1) {
      Piece p;
      if (!ReadUsualPiece(b, &p)) {
        p = Piece();
        if (!ReadPiece(b, &p)) return false;
      }
      // _check(): no piece empty, none past a record's u16 length, all UTF-8.
      if (p.text.empty() || p.text.size() > 0xFFFF || !PieceUtf8(p.text)) return false;
      if (p.type == kUnknown && unknowns++ == 0) out->unk_id = static_cast<uint32_t>(pieces.size());
      if (p.type == kUserDefined) out->user_defined.emplace_back(p.text);
      if (p.type == kControl) out->control.emplace_back(p.text);
      pieces.push_back({static_cast<uint32_t>(p.text.data() - proto.data()), static_cast<uint16_t>(p.text.size()),
                        static_cast<uint8_t>(p.type), p.score});
    } else if (n == 2) {
      if (!ReadTrainer(b, out, &model_type)) return false;  // a repeated message merges
    } else if (n == 3) {
      if (!ReadNormalizer(b, out, &charsmap)) return false;
    } else if (n == 5) {
      if (!ReadNormalizer(b, nullptr, &denormalizer)) return false;
    }
    return true;
  };
  // Pieces take at least 4 bytes of the proto each (key, length, text, and
  // the message's own key and length): room for all of them, never more.
  pieces.reserve(proto.size() / 4);
  for (Wire w(proto); !w.Done();) {
    std::string_view b;
    uint32_t n = 1, t = 2;
    uint64_t v;
    if (!w.UsualBytes(0x0A, &b) && !w.Field(&n, &t, &v, &b)) return false;  // 0x0A: field 1, a piece
    if (!field(n, t, b)) return false;
  }
  // _check(): pieces, one UNKNOWN, none twice, no denormalizer.
  if (pieces.empty() || pieces.size() > kMaxTokenId || denormalizer || unknowns != 1) return false;
  if (model_type != 1 && model_type != 2) return false;
  auto text = [&](size_t id) { return proto.substr(pieces[id].at, pieces[id].size); };
  out->kind = model_type == 1 ? "Unigram" : "SentencePieceBPE";
  out->pieces = static_cast<uint32_t>(pieces.size());
  auto piece_at = [&](int32_t id) {
    return id >= 0 && static_cast<size_t>(id) < pieces.size() ? std::string(text(id)) : std::string();
  };
  out->unk_piece = piece_at(static_cast<int32_t>(out->unk_id));
  out->bos_piece = piece_at(out->bos_id);
  out->eos_piece = piece_at(out->eos_id);
  if (model_type == 2) return true;  // BPE: records in id order (SpPieces)
  // Unigram records go out sorted by text (ids in that order); the pieces
  // are read through the order, in place.
  read->order = OrderByBytes(pieces.size(), text, [](uint32_t a, uint32_t c) { return a < c; });
  const std::vector<uint32_t>& order = read->order;
  for (size_t i = 1; i < order.size(); ++i) {
    if (text(order[i]) == text(order[i - 1])) return false;  // defined twice
  }
  return true;
}

bool DistinctPieces(const SpPieces& p) {
  if (!p.order.empty()) return true;
  Vocab seen;
  seen.Reserve(p.pieces.size());
  for (uint32_t id = 0; id < p.pieces.size(); ++id) {
    if (!seen.AddIfNew(p.proto.substr(p.pieces[id].at, p.pieces[id].size), id)) return false;
  }
  return true;
}

void AppendSpSection(const SpPieces& read, const SpModel& facts, std::string* out) {
  // _piece_model() with mtok_sentencepiece and piece types.
  // One allocation, then each record copied in place.
  size_t size = 10;
  for (const PackedPiece& p : read.pieces) size += 15 + p.size;
  std::string& s = *out;
  const size_t begin = s.size();
  s.resize(begin + size);
  char* w = s.data() + begin;
  auto put = [&w](const void* v, size_t n) {
    std::memcpy(w, v, n);
    w += n;
  };
  const uint8_t code_byte = read.model_type == 1 ? code::kUnigramFull : code::kSentencePieceBpe;
  const uint8_t flags = static_cast<uint8_t>(code::kPieceHasUnk | code::kPieceSentencePiece |
                                             (facts.byte_fallback ? code::kPieceByteFallback : 0));
  put(&code_byte, 1);
  put(&facts.pieces, 4);
  put(&facts.unk_id, 4);
  put(&flags, 1);
  read.ForEachRecord([&](const uint32_t id) {
    const PackedPiece& p = read.pieces[id];
    const double score = p.score;
    put(&p.size, 2);
    put(read.proto.data() + p.at, p.size);
    put(&id, 4);
    put(&score, 8);
    put(&p.type, 1);
  });
}

bool ConvertSpModel(std::string_view proto, SpModel* out) {
  SpPieces read;
  if (!ReadSpModel(proto, out, &read) || !DistinctPieces(read)) return false;
  out->section.clear();
  AppendSpSection(read, *out, &out->section);
  return true;
}

}  // namespace mtok::convert
