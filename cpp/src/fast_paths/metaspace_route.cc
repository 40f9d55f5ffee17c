#include "fast_paths/metaspace_route.h"

#include "common/scratch.h"
#include "common/unicode.h"
#include "common/utf8.h"
#include "normalizers/precompiled.h"
#include "fast_paths/piece_cache.h"
#include "pre_tokenizers/pre_tokenizers.h"

namespace mtok {

namespace {

// Lead bytes of the White_Space characters outside ASCII (all in the BMP).
const bool* WhiteSpaceLeadBytes() {
  static const auto* table = [] {
    auto* t = new bool[256]();
    for (char32_t cp = 0x80; cp < 0x10000; ++cp) {
      if (unicode::is_white_space(cp)) {
        std::string s;
        utf8::append(s, cp);
        t[static_cast<uint8_t>(s[0])] = true;
      }
    }
    return t;
  }();
  return table;
}

}  // namespace

// HF WhitespaceSplit (when present) then Metaspace, over normalized text
// that arrives in chunks of whole characters. Metaspace on a word: prepend
// the replacement as the scheme says (unless the word starts with a space
// or the replacement), replace spaces, split before every replacement
// (MergedWithNext). Without WhitespaceSplit the whole segment is one word.
class MetaspaceRoute::Words {
 public:
  Words(const MetaspaceRoute& r, bool at_input_start, ByteScratch& piece, PieceCache& cache,
        std::vector<uint32_t>* ids)
      : r_(r), at_input_start_(at_input_start), piece_(piece), cache_(cache), ids_(ids) {}

  void Feed(std::string_view chunk) {
    const char* p = chunk.data();
    const char* const end = p + chunk.size();
    while (p < end) {
      const char* q = p;
      while (q < end && !r_.stop_[static_cast<uint8_t>(*q)]) ++q;
      if (q > p) Plain(p, static_cast<size_t>(q - p));
      if (q == end) return;
      p = q;
      const uint8_t b = static_cast<uint8_t>(*p);
      int len = 1;
      const char32_t cp = b < 0x80 ? b : utf8::decode(std::string_view(p, static_cast<size_t>(end - p)), 0, &len);
      // WhitespaceSplit runs before Metaspace, so white space wins.
      if (r_.whitespace_split_ && unicode::is_white_space(cp)) EndWord();
      else if (cp == ' ') Space();
      else if (cp == r_.rep_cp_) Replacement();
      else Plain(p, static_cast<size_t>(len));
      p += len;
    }
  }

  // Ends the segment.
  void Finish() {
    if (open_) Flush();
    open_ = false;
  }

 private:
  void Plain(const char* p, size_t n) {
    if (!open_) {
      open_ = true;
      piece_.clear();
      if (Prepends()) piece_.append(r_.rep_);
    }
    piece_.append(p, n);
    last_space_ = false;
  }

  // Without WhitespaceSplit a space becomes the replacement; with the
  // collapse, a space right after a space is dropped.
  void Space() {
    if (r_.collapse_spaces_ && last_space_) return;
    Replacement();
    last_space_ = true;
  }

  void Replacement() {
    last_space_ = false;
    if (!open_) {  // a word that starts with the replacement: no prepend
      open_ = true;
      piece_.clear();
      piece_.append(r_.rep_);
      return;
    }
    if (!r_.split_) {
      piece_.append(r_.rep_);
      return;
    }
    Flush();
    piece_.append(r_.rep_);
  }

  void EndWord() {
    if (open_) Flush();
    open_ = false;
    white_seen_ = true;
  }

  bool Prepends() const {
    switch (r_.scheme_) {
      case PrependScheme::kAlways: return true;
      case PrependScheme::kFirst: return at_input_start_ && !white_seen_;  // the word starts at offset 0
      default: return false;
    }
  }

  void Flush() {
    r_.EncodePiece(piece_.view(), cache_, ids_);
    piece_.clear();
  }

  const MetaspaceRoute& r_;
  const bool at_input_start_;
  ByteScratch& piece_;
  PieceCache& cache_;
  std::vector<uint32_t>* ids_;
  bool open_ = false;        // a word has started
  bool white_seen_ = false;  // white space came before (WhitespaceSplit)
  bool last_space_ = false;  // the last character was a space (collapse)
};

MetaspaceRoute::MetaspaceRoute() : serial_(NewOwnerSerial()) {}

void MetaspaceRoute::PrepareThread() const { PieceCache::ForThread(serial_); }

void MetaspaceRoute::RuntimeInfo(std::vector<std::pair<std::string, std::string>>* out) const {
  PieceCache::ForThread(serial_).Describe(out);
}

void MetaspaceRoute::EncodePiece(std::string_view piece, PieceCache& cache, std::vector<uint32_t>* ids) const {
  CachedIds(cache, piece, ids,
            [this](std::string_view p, std::vector<uint32_t>* out) { model_->AppendIds(p, out); });
}

std::unique_ptr<MetaspaceRoute> MetaspaceRoute::Make(const PipelineShape& shape, const Model& model) {
  const std::vector<PreTokenizerStage>& stages = shape.pre_tokenizer;
  const bool ws = stages.size() == 2 && std::holds_alternative<WhitespaceSplitShape>(stages[0]);
  const size_t k = ws ? 1 : 0;
  const auto* metaspace = stages.size() == k + 1 ? std::get_if<MetaspaceShape>(&stages[k]) : nullptr;
  if (metaspace == nullptr) return nullptr;
  std::unique_ptr<MetaspaceRoute> r(new MetaspaceRoute());
  r->model_ = &model;
  r->whitespace_split_ = ws;
  r->rep_cp_ = metaspace->replacement;
  utf8::append(r->rep_, r->rep_cp_);
  r->scheme_ = metaspace->prepend_scheme;
  r->split_ = metaspace->split;
  r->stop_[' '] = true;
  r->stop_[static_cast<uint8_t>(r->rep_[0])] = true;
  if (ws) {
    for (int b = '\t'; b <= '\r'; ++b) r->stop_[b] = true;  // ASCII White_Space
    const bool* lead = WhiteSpaceLeadBytes();
    for (int b = 0x80; b < 0x100; ++b) r->stop_[b] = r->stop_[b] || lead[b];
  }
  // Fused when the normalizer is Precompiled, optionally followed by the
  // " {2,}" -> " " collapse; otherwise the caller normalizes first.
  const std::vector<NormalizerStage>& ns = shape.normalizer;
  const auto* precompiled = ns.empty() ? nullptr : std::get_if<PrecompiledShape>(&ns[0]);
  const auto* run = ns.size() == 2 ? std::get_if<RunReplaceShape>(&ns[1]) : nullptr;
  const bool collapse = run && run->byte == ' ' && run->min_run == 2 && run->content == " ";
  if (precompiled && (ns.size() == 1 || collapse)) {
    r->normalizes_ = true;
    r->precompiled_ = precompiled->stage;
    r->collapse_spaces_ = collapse;
    r->FindCuts();
  }
  return r;
}

void MetaspaceRoute::FindCuts() {
  // The form of one character, c alone.
  auto form = [this](char c) {
    const std::string text(1, c);
    std::string out;
    precompiled_->Stream(text, [&](std::string_view chunk) { out.append(chunk); });
    return out;
  };
  cuts_ = (split_ || whitespace_split_) && form('\n') == " ";
  for (char c = '!'; cuts_ && c <= '~'; ++c) kept_before_cut_[static_cast<uint8_t>(c)] = form(c) == std::string(1, c);
}

void MetaspaceRoute::Encode(std::string_view segment, bool at_input_start,
                            std::vector<uint32_t>* ids) const {
  thread_local ByteScratch piece;
  Words words(*this, at_input_start, piece, PieceCache::ForThread(serial_), ids);
  if (precompiled_) precompiled_->Stream(segment, [&](std::string_view chunk) { words.Feed(chunk); });
  else words.Feed(segment);
  words.Finish();
  TrimScratch(piece);
}

}  // namespace mtok
