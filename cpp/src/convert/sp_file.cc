// A SentencePiece .model as a whole .mtok file, natively: what
// src/mtok/format/writer.py writes, byte for byte, for the spec
// src/mtok/convert/sentencepiece.py builds without add_bos/add_eos, with
// the acceleration sections of src/mtok/convert/export.py. A first load
// from a .model is mostly the Python floor of that path (the writer's
// modules, its copies of the charsmap and model section, and a second
// copy of the bytes to compute the tables); here it is one buffer, and the
// tables come from the pieces as read, not from loading the file written.
// tests/format/test_native_convert.py checks the bytes against the
// Python writer on every corpus model and on synthetic ones.
#include <cmath>
#include <utility>
#include <vector>

#include "convert/sink.h"
#include "convert/sp_pieces.h"
#include "io/codes.h"
#include "models/piece_vocab.h"
#include "models/unigram/unigram.h"
#include "mtok/convert.h"

namespace mtok::convert {

namespace {

// [u32 count] then each [u16 len][bytes]; false past 65535 bytes.
bool Strs(Sink& w, const std::vector<std::string>& v) {
  w.u32(static_cast<uint32_t>(v.size()));
  for (const std::string& s : v)
    if (!w.str(s)) return false;
  return true;
}

// A trailer section's payload: `head` then `tail` (the UTRI nodes, written
// from where they were built instead of from a copy).
struct Section {
  uint32_t tag, flags;
  std::string head;
  std::string_view tail = {};
  size_t size() const { return head.size() + tail.size(); }
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
    w.u64(s.size());
    at += s.size();
  }
  for (size_t i = 0; i < sections.size(); ++i) {
    w.out.append(pads[i], '\0');
    w.out.append(sections[i].head);
    w.out.append(sections[i].tail);
  }
  w.out.append((8 - at % 8) % 8, '\0');
  w.u64(begin);
  w.raw(codes::kEndMagic, sizeof codes::kEndMagic);
}

// The body: header, normalizer, pre-tokenizer, model, decoder and tail
// (writer.write_mtok for sentencepiece._spec's dict); *model: where the
// model section starts.
bool AppendBody(const SpModel& m, const SpPieces& pieces, Sink& w, size_t* model) {
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
  *model = w.out.size();
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

// What the model readers check of a section that the reader of the proto
// did not: a file they would refuse is left to the Python importer, which
// names the reason.
bool Loadable(const SpModel& m, const SpPieces& pieces, const Vocab& vocab) {
  for (const PackedPiece& p : pieces.pieces)
    if (!std::isfinite(p.score)) return false;
  uint32_t byte_ids[256];
  return !m.byte_fallback || FindBytePieces(vocab, byte_ids);
}

}  // namespace

bool SpModelFile(std::string_view proto, std::string* out) {
  SpModel m;
  SpPieces pieces;
  if (!ReadSpModel(proto, &m, &pieces)) return false;
  const bool unigram = pieces.model_type == 1;
  const size_t n = pieces.pieces.size();
  size_t text_bytes = 0;
  for (const PackedPiece& p : pieces.pieces) text_bytes += p.size;
  // Room for the body (the proto, and 15 bytes a record), VOFF (4 bytes a
  // piece), VHSH (at most 16) and UTRI (at most a 64-byte node per byte of
  // piece text): one allocation, where a regrowth would copy and fault in
  // the whole file again. Pages never written are never touched.
  Sink w;
  w.out.reserve(proto.size() + 40 * n + (unigram ? 64 * (text_bytes + 2) : 0) + 65536);
  size_t model;
  if (!AppendBody(m, pieces, w, &model)) return false;

  // The vocab as the model readers build it from these records (in file
  // order, views into the file), for its offset and index tables.
  const char* base = w.out.data();
  Vocab vocab;
  vocab.Reserve(n);
  std::vector<ScoredPiece> scored;  // the Unigram trie's input
  if (unigram) scored.reserve(n);
  size_t at = model + 10;  // [u8 code][u32 n][u32 unk][u8 flags], then the records
  bool distinct = true;
  pieces.ForEachRecord([&](const uint32_t id) {
    const PackedPiece& p = pieces.pieces[id];
    const std::string_view token(base + at + 2, p.size);
    if (unigram) vocab.Add(token, id);  // sorted: distinct already
    else if (!vocab.AddIfNew(token, id)) distinct = false;
    if (unigram) scored.push_back({token, id, static_cast<double>(p.score), static_cast<PieceType>(p.type)});
    at += 15 + p.size;  // [u16 len][token][u32 id][f64 score][u8 type]
  });
  vocab.EndAdding();
  if (!distinct) return false;
  if (!Loadable(m, pieces, vocab)) return false;

  std::vector<std::pair<uint32_t, std::string>> tables;
  AppendVocabSections(vocab, reinterpret_cast<const uint8_t*>(base), 13, &tables);
  std::vector<Section> sections;
  sections.push_back({codes::tag::kAddedFlags, 1, std::string(4, '\0')});  // no added tokens
  sections.push_back({codes::tag::kPost, 1, std::string(1, static_cast<char>(codes::post::kNone))});
  for (auto& [tag, payload] : tables) sections.push_back({tag, 0, std::move(payload)});
  UnigramTrie trie;
  if (unigram) {
    trie = BuildUnigramTrie(scored, true);
    sections.push_back({codes::tag::kUnigramTrie, 0, UnigramTrieHeader(trie.built.size(), trie.unk_score),
                        std::string_view(reinterpret_cast<const char*>(trie.built.data()),
                                         trie.built.size() * sizeof(TrieNode))});
  }
  AppendTrailer(sections, w);
  *out = std::move(w.out);
  return true;
}

}  // namespace mtok::convert
