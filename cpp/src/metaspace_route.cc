#include "metaspace_route.h"

#include <cstring>

#include "common/unicode.h"
#include "common/utf8.h"
#include "piece_cache.h"
#include "pre_tokenizers/pre_tokenizers.h"

namespace mtok {

MetaspaceRoute::MetaspaceRoute() : serial_(PieceCache::NewOwner()) {}

void MetaspaceRoute::EncodePiece(std::string_view piece, PieceCache& cache, std::vector<uint32_t>* ids) const {
  CachedIds(cache, piece, ids,
            [this](std::string_view p, std::vector<uint32_t>* out) { model_->AppendIds(p, out); });
}

std::unique_ptr<MetaspaceRoute> MetaspaceRoute::Make(const std::vector<PreTokenizerStage>& stages,
                                                     const Model& model) {
  size_t k = 0;
  bool ws = false;
  if (stages.size() == 2 && stages[0].kind == PreTokenizerStage::kWhitespaceSplit) {
    ws = true;
    k = 1;
  }
  if (stages.size() != k + 1 || stages[k].kind != PreTokenizerStage::kMetaspace) return nullptr;
  std::unique_ptr<MetaspaceRoute> r(new MetaspaceRoute());
  r->model_ = &model;
  r->whitespace_split_ = ws;
  utf8::append(r->rep_, stages[k].replacement);
  r->scheme_ = stages[k].prepend_scheme;
  r->split_ = stages[k].split;
  return r;
}

// HF Metaspace on one piece: prepend the replacement as the scheme says
// (unless the piece starts with a space or the replacement), replace
// spaces, then split before every replacement (MergedWithNext).
void MetaspaceRoute::EncodeWord(std::string_view word, bool at_input_start, std::string* buf,
                                PieceCache& cache, std::vector<uint32_t>* ids) const {
  if (word.empty()) return;
  const std::string_view rep = rep_;
  buf->clear();
  const auto scheme = static_cast<PrependScheme>(scheme_);
  const bool prepend = scheme == PrependScheme::kAlways || (scheme == PrependScheme::kFirst && at_input_start);
  const bool starts = word[0] == ' ' || word.substr(0, rep.size()) == rep;
  if (prepend && !starts) buf->append(rep);
  for (size_t i = 0; i < word.size();) {
    const void* hit = std::memchr(word.data() + i, ' ', word.size() - i);
    const size_t sp = hit ? static_cast<size_t>(static_cast<const char*>(hit) - word.data()) : word.size();
    buf->append(word.data() + i, sp - i);
    if (sp == word.size()) break;
    buf->append(rep);
    i = sp + 1;
  }
  const std::string_view s = *buf;
  if (!split_) {
    EncodePiece(s, cache, ids);
    return;
  }
  // The replacement is a whole UTF-8 sequence, so a byte search finds
  // exactly its character occurrences.
  size_t piece_begin = 0;
  for (size_t at = s.find(rep, 1); at != std::string_view::npos; at = s.find(rep, at + rep.size())) {
    EncodePiece(s.substr(piece_begin, at - piece_begin), cache, ids);
    piece_begin = at;
  }
  EncodePiece(s.substr(piece_begin), cache, ids);
}

void MetaspaceRoute::Encode(std::string_view segment, bool at_input_start,
                            std::vector<uint32_t>* ids) const {
  thread_local std::string buf;
  PieceCache& cache = PieceCache::ForThread(serial_);
  if (!whitespace_split_) {
    EncodeWord(segment, at_input_start, &buf, cache, ids);
    return;
  }
  // HF WhitespaceSplit: words between White_Space characters.
  size_t word_begin = 0;
  for (size_t i = 0; i < segment.size();) {
    int len;
    const char32_t cp = utf8::decode(segment, i, &len);
    if (unicode::is_white_space(cp)) {
      EncodeWord(segment.substr(word_begin, i - word_begin), at_input_start && word_begin == 0, &buf, cache,
                 ids);
      word_begin = i + len;
    }
    i += len;
  }
  EncodeWord(segment.substr(word_begin), at_input_start && word_begin == 0, &buf, cache, ids);
}

}  // namespace mtok
