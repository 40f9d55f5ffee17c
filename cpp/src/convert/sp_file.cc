// A SentencePiece .model as a whole .mtok file, natively: what
// src/mtok/format/writer.py writes, byte for byte, for the spec
// src/mtok/convert/sentencepiece.py builds without add_bos/add_eos, with
// the acceleration sections of src/mtok/convert/export.py. A first load
// from a .model is mostly the Python floor of that path (the writer's
// modules, its copies of the charsmap and model section, and a second
// copy of the bytes to compute the tables); here it is one buffer.
// tests/format/test_native_convert.py checks the bytes against the
// Python writer on every corpus model and on synthetic ones.
#include <memory>
#include <utility>
#include <vector>

#include "convert/sink.h"
#include "convert/sp_pieces.h"
#include "io/codes.h"
#include "mtok/buffer.h"
#include "mtok/convert.h"
#include "mtok/tokenizer.h"

namespace mtok::convert {

namespace {

// [u32 count] then each [u16 len][bytes]; false past 65535 bytes.
bool Strs(Sink& w, const std::vector<std::string>& v) {
  w.u32(static_cast<uint32_t>(v.size()));
  for (const std::string& s : v)
    if (!w.str(s)) return false;
  return true;
}

struct Section {
  uint32_t tag, flags;
  std::string payload;
};

// writer._trailer: magic, table, 8-aligned payloads (UTRI 64-aligned),
// then [u64 trailer offset] "MTOKEND1".
void AppendTrailer(const std::vector<Section>& sections, Sink& w) {
  const size_t begin = w.out.size();
  size_t at = begin + sizeof codes::kExtMagic + 4 + 24 * sections.size();
  w.raw(codes::kExtMagic, sizeof codes::kExtMagic);
  w.u32(static_cast<uint32_t>(sections.size()));
  std::vector<size_t> pads;
  for (const Section& s : sections) {
    const size_t align = s.tag == codes::tag::kUnigramTrie ? 64 : 8;
    pads.push_back((align - at % align) % align);
    at += pads.back();
    w.u32(s.tag);
    w.u32(s.flags);
    w.u64(at);
    w.u64(s.payload.size());
    at += s.payload.size();
  }
  for (size_t i = 0; i < sections.size(); ++i) {
    w.out.append(pads[i], '\0');
    w.out.append(sections[i].payload);
  }
  w.out.append((8 - at % 8) % 8, '\0');
  w.u64(begin);
  w.raw(codes::kEndMagic, sizeof codes::kEndMagic);
}

// The body: header, normalizer, pre-tokenizer, model, decoder and tail
// (writer.write_mtok for sentencepiece._spec's dict).
bool AppendBody(const SpModel& m, const SpPieces& pieces, Sink& w) {
  const bool has_eos = m.eos_id >= 0 && static_cast<uint32_t>(m.eos_id) < m.pieces;
  const bool has_bos = m.bos_id >= 0 && static_cast<uint32_t>(m.bos_id) < m.pieces;
  // Header: no special (added) tokens, the eos id as stop id, no prefix.
  w.out += std::to_string(codes::kMagic) + " " + std::to_string(codes::kPipelineType) + "\n0 " +
           (has_eos ? "1" : "0") + " 0\n" + (has_eos ? std::to_string(m.eos_id) : "") + "\n";
  w.u8(codes::norm::kSpmWhitespace);
  w.u8(static_cast<uint8_t>(m.add_dummy_prefix | m.remove_extra_whitespaces << 1 | m.escape_whitespaces << 2 |
                            m.treat_whitespace_as_suffix << 3));
  w.long_str(m.precompiled_charsmap);
  if (!Strs(w, m.user_defined)) return false;
  w.u8(codes::pre::kNone);
  AppendSpSection(pieces, m, &w.out);
  w.u8(codes::dec::kSentencePiece);
  w.u8(static_cast<uint8_t>(m.add_dummy_prefix | m.remove_extra_whitespaces << 1 | m.byte_fallback << 2));
  if (!w.str(m.unk_piece) || !w.str(m.unk_surface) || !Strs(w, m.control)) return false;
  w.u32(0);  // added tokens
  w.long_str("");  // chat template
  w.str(has_eos ? std::string_view(m.eos_piece) : std::string_view());
  w.u8(0);  // clean_up_tokenization_spaces
  w.str(has_bos ? std::string_view(m.bos_piece) : std::string_view());
  w.u16(0);  // MNN program: no ops
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
  Sink w;
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
    w.out.reserve(proto.size() + 40 * pieces.pieces.size() + 65536);
    if (!AppendBody(m, pieces, w)) return false;
  }
  const size_t body = w.out.size();
  std::vector<Section> sections;
  sections.push_back({codes::tag::kAddedFlags, 1, std::string(4, '\0')});  // no added tokens
  sections.push_back({codes::tag::kPost, 1, std::string(1, static_cast<char>(codes::post::kNone))});
  // The tables hold file offsets of the model's records, which the body
  // fixes: computed from the file without them, then the trailer rewritten.
  AppendTrailer(sections, w);
  std::vector<std::pair<uint32_t, std::string>> accel;
  {
    std::unique_ptr<Tokenizer> t;
    if (!Tokenizer::Load(std::make_shared<Borrowed>(w.out), &t).ok()) return false;
    t->AccelSections(&accel);
  }
  for (auto& [tag, payload] : accel) sections.push_back({tag, 0, std::move(payload)});
  w.out.resize(body);
  AppendTrailer(sections, w);
  *out = std::move(w.out);
  return true;
}

}  // namespace mtok::convert
