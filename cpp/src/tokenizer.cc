// Wires the stages together in their order (stage_order.h), on the general
// path or an ids route, then post-processing. Nothing algorithmic lives here.
#include "mtok/tokenizer.h"

#include <algorithm>
#include <cstdint>

#include "common/scratch.h"
#include "encoding/encoding_ops.h"
#include "encoding/offsets.h"
#include "fast_paths/split_encode.h"
#include "processors/template.h"
#include "stage_order.h"
#include "tokenizer_impl.h"

namespace mtok {

Tokenizer::Tokenizer() : f_(std::make_unique<TokenizerImpl>()) {}
Tokenizer::~Tokenizer() = default;

Status Tokenizer::Load(std::shared_ptr<const Buffer> bytes, std::unique_ptr<Tokenizer>* out) {
  std::unique_ptr<Tokenizer> t(new Tokenizer());
  MTOK_RETURN_IF_ERROR(t->f_->Load(std::move(bytes)));
  *out = std::move(t);
  return Status::Ok();
}

Status Tokenizer::EncodeSequence(std::string_view text, const EncodeOptions& opt,
                                 uint32_t type_id, Encoding* seq) const {
  try {
    RunPipeline(text, opt, type_id, seq);
  } catch (StageError& e) {
    seq->ids.clear();
    return std::move(e.status);
  }
  return Status::Ok();
}

namespace {

// The general path: Piece objects, with offsets and word ids when asked.
class PiecePath {
 public:
  PiecePath(const TokenizerImpl& f, std::string_view text, const EncodeOptions& opt,
            const std::vector<bool>* allowed, uint32_t type_id, Encoding* seq)
      : f_(f), text_(text), opt_(opt), allowed_(allowed), type_id_(type_id), seq_(seq),
        split_added_(opt.added != EncodeOptions::Added::kNone), pieces_(1) {
    pieces_[0].text.assign(text);
    pieces_[0].at_input_start = true;
    if (opt.details) pieces_[0].align = CharSpans(text);
    if (text.empty()) pieces_.clear();
  }

  void SplitAdded(bool normalized) {
    if (split_added_) f_.added->Split(&pieces_, normalized, allowed_);
  }
  void Normalize() {
    for (Piece& p : pieces_) {
      if (p.added_id < 0 && f_.normalizer) f_.normalizer->Normalize(&p);
    }
  }
  void Tokenize() {
    if (f_.pre_tokenizer) f_.pre_tokenizer->Apply(&pieces_);
    std::unique_ptr<CharOffsets> chars;
    if (opt_.details) chars = std::make_unique<CharOffsets>(text_);
    std::vector<Token> tokens;
    int32_t word = 0;  // HF word ids: the index of each non-empty final piece
    for (const Piece& p : pieces_) {
      if (p.text.empty()) continue;
      if (p.added_id >= 0) {
        if (opt_.details) AppendAddedPiece(p, word, type_id_, *chars, seq_);
        else seq_->ids.push_back(static_cast<uint32_t>(p.added_id));
      } else if (opt_.details) {
        tokens.clear();
        f_.model->Tokenize(p, &tokens);
        AppendPieceTokens(p, tokens, *f_.model, word, type_id_, *chars, seq_);
      } else {
        f_.model->AppendIds(p.text, &seq_->ids);
      }
      ++word;
    }
  }

 private:
  const TokenizerImpl& f_;
  std::string_view text_;
  const EncodeOptions& opt_;
  const std::vector<bool>* allowed_;
  uint32_t type_id_;
  Encoding* seq_;
  bool split_added_;
  std::vector<Piece> pieces_;
};

// The ids route's path: byte ranges of the input, or of a per-thread
// buffer holding a normalized run; the route does the rest (and the
// normalizer too when it fuses it). A warm call allocates nothing.
class RoutePath {
 public:
  RoutePath(const TokenizerImpl& f, std::string_view text, bool split_added,
            const std::vector<bool>* allowed, int threads, std::vector<uint32_t>* ids)
      : f_(f), text_(text), split_added_(split_added), allowed_(allowed), threads_(threads), ids_(ids) {}
  ~RoutePath() {
    for (std::string& n : s_.normalized) TrimScratch(n);
  }

  void SplitAdded(bool normalized) {
    if (!normalized) {
      s_.segs.clear();
      if (!split_added_) {
        if (!text_.empty()) s_.segs.push_back({nullptr, 0, text_.size(), -1, true});
        return;
      }
      f_.added->Segments(text_, /*normalized=*/false, allowed_, &s_.found);
      for (const TextSegment& t : s_.found)
        s_.segs.push_back({nullptr, t.begin, t.end, t.added_id, t.begin == 0});
      return;
    }
    if (!split_added_ || !f_.added->has_normalized()) return;
    s_.next.clear();
    for (const Seg& s : s_.segs) {
      if (s.added_id >= 0) {
        s_.next.push_back(s);
        continue;
      }
      f_.added->Segments(View(s), /*normalized=*/true, allowed_, &s_.found);
      for (const TextSegment& t : s_.found)
        s_.next.push_back({s.in, s.begin + t.begin, s.begin + t.end, t.added_id, s.at_start && t.begin == 0});
    }
    s_.segs.swap(s_.next);
  }
  void Normalize() {
    // (A route that fuses the normalizer is never made when added tokens
    // are normalized.)
    if (!f_.normalizer || f_.route->Normalizes()) return;
    // Sized first: the segments keep pointers to these strings.
    if (s_.normalized.size() < s_.segs.size()) s_.normalized.resize(s_.segs.size());
    for (size_t i = 0; i < s_.segs.size(); ++i) {
      Seg& s = s_.segs[i];
      if (s.added_id >= 0) continue;
      // A segment long enough to split is normalized part by part on the
      // pool (Tokenize) instead of whole on this thread first: unless
      // added tokens are matched in the normalized text, which comes next.
      if (f_.route->SplitPays(s.end - s.begin, threads_) &&
          f_.normalizer->FormSplitsAfterLineBreak() && !(split_added_ && f_.added->has_normalized())) {
        s.normalize_in_parts = true;
        continue;
      }
      if (!f_.normalizer->LeavesAlone(View(s))) NormalizeSeg(i);
    }
  }
  void Tokenize() {
    for (size_t i = 0; i < s_.segs.size(); ++i) {
      const Seg& s = s_.segs[i];
      if (s.added_id >= 0) {
        ids_->push_back(static_cast<uint32_t>(s.added_id));
        continue;
      }
      if (s.normalize_in_parts) {
        const PartForm form = [this](std::string_view part, std::string* scratch) {
          if (f_.normalizer->LeavesAlone(part)) return part;
          f_.normalizer->NormalizeText(part, scratch);
          return std::string_view(*scratch);
        };
        const SplitResult split = EncodeSplit(*f_.route, View(s), s.at_start, threads_, ids_, &form);
        if (split == SplitResult::kEncoded) continue;
        // No cut in the input, or the normalized text is not cut where the
        // input was: normalized whole, as any other segment.
        if (!f_.normalizer->LeavesAlone(View(s))) NormalizeSeg(i);
        if (split == SplitResult::kNotSplit) {  // its cuts were searched for already
          f_.route->Encode(View(s), s.at_start, ids_);
          continue;
        }
      }
      if (EncodeSplit(*f_.route, View(s), s.at_start, threads_, ids_) != SplitResult::kEncoded)
        f_.route->Encode(View(s), s.at_start, ids_);
    }
  }

 private:
  struct Seg {
    const std::string* in;  // null: the input text
    size_t begin, end;
    int64_t added_id;       // -1: text for the route
    bool at_start;          // starts at offset 0 of the input
    bool normalize_in_parts = false;  // left to Tokenize's split (raw text until then)
  };
  struct Scratch {
    std::vector<Seg> segs, next;
    std::vector<TextSegment> found;
    std::vector<std::string> normalized;
  };

  // Segment i (of the input text) normalized into its own buffer.
  void NormalizeSeg(size_t i) {
    Seg& s = s_.segs[i];
    std::string& out = s_.normalized[i];
    f_.normalizer->NormalizeText(View(s), &out);
    s = {&out, 0, out.size(), -1, s.at_start};
  }

  std::string_view View(const Seg& s) const {
    std::string_view in = s.in ? std::string_view(*s.in) : text_;
    return in.substr(s.begin, s.end - s.begin);
  }

  const TokenizerImpl& f_;
  std::string_view text_;
  bool split_added_;
  const std::vector<bool>* allowed_;
  int threads_;  // a long segment may be split over this many (split_encode.h)
  std::vector<uint32_t>* ids_;
  static thread_local Scratch s_;
};

thread_local RoutePath::Scratch RoutePath::s_;

}  // namespace

void Tokenizer::RunPipeline(std::string_view text, const EncodeOptions& opt, uint32_t type_id,
                            Encoding* seq) const {
  const TokenizerImpl& f = *f_;
  const bool split_added = opt.added != EncodeOptions::Added::kNone;
  std::vector<bool> mask;
  if (opt.added == EncodeOptions::Added::kAllowed) mask = f.added->MaskOf(opt.allowed_ids);
  const std::vector<bool>* allowed = opt.added == EncodeOptions::Added::kAllowed ? &mask : nullptr;
  seq->detailed = opt.details;
  if (f.route && !opt.details) {
    RouteIds(text, split_added, allowed, /*threads=*/1, &seq->ids);
    return;
  }
  PiecePath path(f, text, opt, allowed, type_id, seq);
  RunStages(path);
}

void Tokenizer::RouteIds(std::string_view text, bool split_added, const std::vector<bool>* allowed, int threads,
                         std::vector<uint32_t>* ids) const {
  RoutePath path(*f_, text, split_added, allowed, threads, ids);
  RunStages(path);
}

namespace {

// The per-token fields an ids-only sequence leaves empty, for the general
// post-processing path.
void FillPlain(Encoding* e, uint32_t type_id) {
  if (e->detailed) return;
  e->type_ids.assign(e->size(), type_id);
  e->special_mask.assign(e->size(), 0);
  e->attention_mask.assign(e->size(), 1);
}

}  // namespace

Status Tokenizer::Encode(std::string_view text, const EncodeOptions& opt, Encoding* out) const {
  Encoding a;
  MTOK_RETURN_IF_ERROR(EncodeSequence(text, opt, 0, &a));
  return PostProcess(&a, nullptr, opt, out);
}

Status Tokenizer::EncodePair(std::string_view text, std::string_view pair,
                             const EncodeOptions& opt, Encoding* out) const {
  Encoding a, b;
  MTOK_RETURN_IF_ERROR(EncodeSequence(text, opt, 0, &a));
  MTOK_RETURN_IF_ERROR(EncodeSequence(pair, opt, 1, &b));
  return PostProcess(&a, &b, opt, out);
}

// HF post_process: truncate, add special tokens, pad.
Status Tokenizer::PostProcess(Encoding* a, Encoding* b, const EncodeOptions& opt,
                              Encoding* out) const {
  FillPlain(a, 0);
  if (b) FillPlain(b, 1);
  if (opt.truncation.enabled) {
    TruncationParams t = opt.truncation;
    const size_t added = f_->post.AddedTokens(b != nullptr);
    if (opt.add_special_tokens && added > 0) {
      // HF subtracts without a check; a shorter max_length wraps to "no limit".
      t.max_length = t.max_length >= added ? t.max_length - added : SIZE_MAX;
    }
    MTOK_RETURN_IF_ERROR(TruncateEncodings(a, b, t));
  }
  f_->post.Process(*a, b, opt.add_special_tokens, out);
  if (opt.padding.enabled) Pad(out, PadTarget(out->size(), opt.padding), opt.padding);
  return Status::Ok();
}

size_t Tokenizer::NumSpecialTokensToAdd(bool pair) const { return f_->post.AddedTokens(pair); }

Status Tokenizer::EncodeIds(std::string_view text, const EncodeOptions& opt,
                            std::vector<uint32_t>* ids) const {
  if (opt.plain() && f_->route && opt.added != EncodeOptions::Added::kAllowed) {
    // Straight into *ids: a warm call with a reused vector allocates nothing.
    ids->clear();
    try {
      RouteIds(text, opt.added != EncodeOptions::Added::kNone, nullptr, opt.threads, ids);
    } catch (StageError& e) {
      ids->clear();
      return std::move(e.status);
    }
    f_->post.ProcessIds(ids, opt.add_special_tokens);
    return Status::Ok();
  }
  Encoding e;
  if (opt.plain()) {
    // Only ids: no per-token fields are built.
    MTOK_RETURN_IF_ERROR(EncodeSequence(text, opt, 0, &e));
    f_->post.ProcessIds(&e.ids, opt.add_special_tokens);
  } else {
    MTOK_RETURN_IF_ERROR(Encode(text, opt, &e));
  }
  ids->swap(e.ids);
  return Status::Ok();
}

bool Tokenizer::IdToToken(uint32_t id, std::string* token) const {
  return f_->IdToToken(id, token);
}

bool Tokenizer::TokenToId(std::string_view token, uint32_t* id) const {
  if (const AddedToken* t = f_->added->ByContent(token)) {
    *id = t->id;
    return true;
  }
  return f_->model->TokenToId(token, id);
}

uint32_t Tokenizer::VocabSize(bool with_added) const {
  uint32_t n = f_->model->VocabSize();
  if (!with_added) return n;
  // HF counts the union of model token strings and added token contents.
  uint32_t unused;
  for (const AddedToken& t : f_->added->tokens()) {
    if (!f_->model->TokenToId(t.content, &unused)) ++n;
  }
  return n;
}

uint32_t Tokenizer::IdLimit() const {
  uint32_t n = f_->model->VocabSize();
  for (const AddedToken& t : f_->added->tokens()) n = std::max(n, t.id + 1);
  return n;
}

bool Tokenizer::IsSpecial(uint32_t id) const {
  const AddedToken* t = f_->added->ById(id);
  return t != nullptr && t->special;
}

std::string Tokenizer::Decode(const uint32_t* ids, size_t n, bool skip_special_tokens) const {
  std::vector<std::string> tokens;
  tokens.reserve(n);
  std::string tok;
  for (size_t i = 0; i < n; ++i) {
    if (!IdToToken(ids[i], &tok)) continue;  // HF drops unknown ids
    if (skip_special_tokens && f_->added->IsSpecialContent(tok)) continue;
    tokens.push_back(tok);
  }
  std::string out;
  if (f_->decoder) {
    f_->decoder->Decode(&tokens);
    for (const std::string& t : tokens) out += t;
  } else {
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (i) out += ' ';
      out += tokens[i];
    }
  }
  return out;
}

void Tokenizer::RuntimeInfo(std::vector<std::pair<std::string, std::string>>* out) const {
  out->emplace_back("ids_route", f_->route ? f_->route->Name() : "general pipeline");
  if (f_->route) {
    f_->route->RuntimeInfo(out);
    f_->route->DescribeSplits(out);
  }
  f_->model->RuntimeInfo(out);
}

void Tokenizer::AccelSections(std::vector<std::pair<uint32_t, std::string>>* out) const {
  f_->model->AccelSections(f_->bytes->data(), out);
}

const TokenizerInfo& Tokenizer::info() const { return f_->info; }
const Buffer& Tokenizer::bytes() const { return *f_->bytes; }

}  // namespace mtok
