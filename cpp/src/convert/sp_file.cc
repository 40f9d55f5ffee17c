// A SentencePiece .model as a whole .mtok file, natively: what
// src/mtok/format/writer.py writes, byte for byte, for the spec
// src/mtok/convert/sentencepiece.py builds without add_bos/add_eos, with
// the acceleration sections of src/mtok/convert/export.py. A first load
// from a .model is mostly the Python floor of that path (the writer's
// modules, its copies of the charsmap and model section, and a second
// copy of the bytes to compute the tables); here it is one buffer.
// tests/format/test_native_sp_file.py checks the bytes against the
// Python writer on every corpus model.
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "convert/sp_pieces.h"
#include "io/codes.h"
#include "mtok/buffer.h"
#include "mtok/convert.h"
#include "mtok/tokenizer.h"

namespace mtok::convert {

namespace {

class Out {
 public:
  explicit Out(std::string* s) : s_(s) {}
  void U8(uint8_t v) { s_->push_back(static_cast<char>(v)); }
  void U16(uint16_t v) { Raw(&v, 2); }
  void U32(uint32_t v) { Raw(&v, 4); }
  void U64(uint64_t v) { Raw(&v, 8); }
  void Raw(const void* p, size_t n) { s_->append(static_cast<const char*>(p), n); }
  void Raw(std::string_view s) { s_->append(s.data(), s.size()); }
  // [u16 len][bytes]; false past 65535 bytes (the Python writer's error).
  bool Str(std::string_view s) {
    if (s.size() > 0xFFFF) return false;
    U16(static_cast<uint16_t>(s.size()));
    Raw(s);
    return true;
  }
  void LongStr(std::string_view s) {
    U32(static_cast<uint32_t>(s.size()));
    Raw(s);
  }
  bool Strs(const std::vector<std::string>& v) {
    U32(static_cast<uint32_t>(v.size()));
    for (const std::string& s : v)
      if (!Str(s)) return false;
    return true;
  }

 private:
  std::string* s_;
};

struct Section {
  uint32_t tag, flags;
  std::string payload;
};

// writer._trailer: magic, table, 8-aligned payloads (UTRI 64-aligned),
// then [u64 trailer offset] "MTOKEND1".
void AppendTrailer(const std::vector<Section>& sections, std::string* file) {
  const size_t begin = file->size();
  size_t at = begin + sizeof codes::kExtMagic + 4 + 24 * sections.size();
  Out w(file);
  w.Raw(codes::kExtMagic, sizeof codes::kExtMagic);
  w.U32(static_cast<uint32_t>(sections.size()));
  std::vector<size_t> pads;
  for (const Section& s : sections) {
    const size_t align = s.tag == codes::tag::kUnigramTrie ? 64 : 8;
    pads.push_back((align - at % align) % align);
    at += pads.back();
    w.U32(s.tag);
    w.U32(s.flags);
    w.U64(at);
    w.U64(s.payload.size());
    at += s.payload.size();
  }
  for (size_t i = 0; i < sections.size(); ++i) {
    file->append(pads[i], '\0');
    w.Raw(sections[i].payload);
  }
  file->append((8 - at % 8) % 8, '\0');
  w.U64(begin);
  w.Raw(codes::kEndMagic, sizeof codes::kEndMagic);
}

// The body: header, normalizer, pre-tokenizer, model, decoder and tail
// (writer.write_mtok for sentencepiece._spec's dict).
bool AppendBody(const SpModel& m, const SpPieces& pieces, std::string* file) {
  const bool has_eos = m.eos_id >= 0 && static_cast<uint32_t>(m.eos_id) < m.pieces;
  const bool has_bos = m.bos_id >= 0 && static_cast<uint32_t>(m.bos_id) < m.pieces;
  // Header: no special (added) tokens, the eos id as stop id, no prefix.
  *file += std::to_string(codes::kMagic) + " " + std::to_string(codes::kPipelineType) + "\n0 " +
           (has_eos ? "1" : "0") + " 0\n" + (has_eos ? std::to_string(m.eos_id) : "") + "\n";
  Out w(file);
  w.U8(codes::norm::kSpmWhitespace);
  w.U8(static_cast<uint8_t>(m.add_dummy_prefix | m.remove_extra_whitespaces << 1 | m.escape_whitespaces << 2 |
                            m.treat_whitespace_as_suffix << 3));
  w.LongStr(m.precompiled_charsmap);
  if (!w.Strs(m.user_defined)) return false;
  w.U8(codes::pre::kNone);
  AppendSpSection(pieces, m, file);
  w.U8(codes::dec::kSentencePiece);
  w.U8(static_cast<uint8_t>(m.add_dummy_prefix | m.remove_extra_whitespaces << 1 | m.byte_fallback << 2));
  if (!w.Str(m.unk_piece) || !w.Str(m.unk_surface) || !w.Strs(m.control)) return false;
  w.U32(0);  // added tokens
  w.LongStr("");  // chat template
  w.Str(has_eos ? std::string_view(m.eos_piece) : std::string_view());
  w.U8(0);  // clean_up_tokenization_spaces
  w.Str(has_bos ? std::string_view(m.bos_piece) : std::string_view());
  w.U16(0);  // MNN program: no ops
  return true;
}

// The file's bytes as a Buffer, borrowed: the tokenizer loaded from it
// lives only while the tables are computed.
class Borrowed : public Buffer {
 public:
  explicit Borrowed(std::string_view s) : s_(s) {}
  const uint8_t* data() const override { return reinterpret_cast<const uint8_t*>(s_.data()); }
  size_t size() const override { return s_.size(); }

 private:
  std::string_view s_;
};

}  // namespace

bool SpModelFile(std::string_view proto, std::string* out) {
  std::string& file = *out;
  file.clear();
  {
    // Freed before the load, which then reuses their pages.
    SpModel m;
    SpPieces pieces;
    // The pieces' UTF-8 is checked once, by the load below.
    if (!ReadSpModel(proto, false, &m, &pieces)) return false;
    // Room for the body (a record is 15 bytes and the text) and a trailer
    // with the vocab's tables (VOFF 4 bytes a piece, VHSH at most 16): one
    // allocation, where a regrowth would copy and fault in the whole file
    // again. Pages never written are never touched.
    file.reserve(proto.size() + 40 * pieces.pieces.size() + 65536);
    if (!AppendBody(m, pieces, &file)) return false;
  }
  const size_t body = file.size();
  std::vector<Section> sections;
  sections.push_back({codes::tag::kAddedFlags, 1, std::string(4, '\0')});  // no added tokens
  sections.push_back({codes::tag::kPost, 1, std::string(1, static_cast<char>(codes::post::kNone))});
  // The tables hold file offsets of the model's records, which the body
  // fixes: computed from the file without them, then the trailer rewritten.
  AppendTrailer(sections, &file);
  std::vector<std::pair<uint32_t, std::string>> accel;
  {
    std::unique_ptr<Tokenizer> t;
    if (!Tokenizer::Load(std::make_shared<Borrowed>(file), &t).ok()) return false;
    t->AccelSections(&accel);
  }
  for (auto& [tag, payload] : accel) sections.push_back({tag, 0, std::move(payload)});
  file.resize(body);
  AppendTrailer(sections, &file);
  return true;
}

}  // namespace mtok::convert
