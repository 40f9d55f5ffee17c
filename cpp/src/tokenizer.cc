// Wires the stages together (HF order): added tokens on raw text, then per
// segment normalization and normalized added tokens, pre-tokenization, the
// model, post-processing. Nothing algorithmic lives here.
#include "mtok/tokenizer.h"

#include <algorithm>
#include <cstdint>

#include "common/scratch.h"
#include "encoding/encoding_ops.h"
#include "encoding/offsets.h"
#include "format/loaded_file.h"
#include "processors/template.h"

namespace mtok {

Tokenizer::Tokenizer() : f_(std::make_unique<LoadedFile>()) {}
Tokenizer::~Tokenizer() = default;

Status Tokenizer::Load(std::shared_ptr<const Buffer> bytes, std::unique_ptr<Tokenizer>* out) {
  std::unique_ptr<Tokenizer> t(new Tokenizer());
  try {  // added tokens are normalized while loading
    MTOK_RETURN_IF_ERROR(ReadMtok(std::move(bytes), t->f_.get()));
  } catch (StageError& e) {
    return FormatError("normalizing the added tokens: " + e.status.message());
  }
  const Tokenizer& self = *t;
  t->f_->post.ResolveTokens([&](uint32_t id) {
    std::string s;
    self.IdToToken(id, &s);
    return s;
  });
  // The loading thread usually encodes next: its caches are made now, so
  // that the first encode does not wait for the kernel to clear their pages
  // (about 0.3 ms).
  if (t->f_->route) t->f_->route->PrepareThread();
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

void Tokenizer::RunPipeline(std::string_view text, const EncodeOptions& opt, uint32_t type_id,
                            Encoding* seq) const {
  const LoadedFile& f = *f_;
  const bool split_added = opt.added != EncodeOptions::Added::kNone;
  std::vector<bool> mask;
  if (opt.added == EncodeOptions::Added::kAllowed) mask = f.added->MaskOf(opt.allowed_ids);
  const std::vector<bool>* allowed = opt.added == EncodeOptions::Added::kAllowed ? &mask : nullptr;
  seq->detailed = opt.details;
  if (f.route && !opt.details) {
    RouteIds(text, split_added, allowed, &seq->ids);
    return;
  }

  std::vector<Piece> pieces(1);
  pieces[0].text.assign(text);
  pieces[0].at_input_start = true;
  if (opt.details) pieces[0].align = CharSpans(text);
  if (text.empty()) pieces.clear();
  if (split_added) f.added->Split(&pieces, /*normalized=*/false, allowed);
  for (Piece& p : pieces) {
    if (p.added_id < 0 && f.normalizer) f.normalizer->Normalize(&p);
  }
  if (split_added) f.added->Split(&pieces, /*normalized=*/true, allowed);
  if (f.pre_tokenizer) f.pre_tokenizer->Apply(&pieces);
  std::unique_ptr<CharOffsets> chars;
  if (opt.details) chars = std::make_unique<CharOffsets>(text);
  std::vector<Token> tokens;
  int32_t word = 0;  // HF word ids: the index of each non-empty final piece
  for (const Piece& p : pieces) {
    if (p.text.empty()) continue;
    if (p.added_id >= 0) {
      if (opt.details) AppendAddedPiece(p, word, type_id, *chars, seq);
      else seq->ids.push_back(static_cast<uint32_t>(p.added_id));
    } else if (opt.details) {
      tokens.clear();
      f.model->Tokenize(p, &tokens);
      AppendPieceTokens(p, tokens, *f.model, word, type_id, *chars, seq);
    } else {
      f.model->AppendIds(p.text, &seq->ids);
    }
    ++word;
  }
}

// The same stages as RunPipeline, over byte ranges of the input instead of
// pieces: added tokens on the raw text, normalization (unless the route
// fuses it), normalized added tokens, then the route.
void Tokenizer::RouteIds(std::string_view text, bool split_added, const std::vector<bool>* allowed,
                         std::vector<uint32_t>* ids) const {
  const LoadedFile& f = *f_;
  thread_local std::vector<TextSegment> raw, norm;
  thread_local std::string normalized;
  if (split_added) {
    f.added->Segments(text, /*normalized=*/false, allowed, &raw);
  } else {
    raw.clear();
    if (!text.empty()) raw.push_back({0, text.size(), -1});
  }
  const bool split_norm = split_added && f.added->has_normalized();
  for (const TextSegment& s : raw) {
    if (s.added_id >= 0) {
      ids->push_back(static_cast<uint32_t>(s.added_id));
      continue;
    }
    std::string_view seg = text.substr(s.begin, s.end - s.begin);
    const bool at_start = s.begin == 0;
    // (A fusing route is never made with split_norm.)
    if (f.normalizer && !f.route->Normalizes() && !f.normalizer->LeavesAlone(seg)) {
      f.normalizer->NormalizeText(seg, &normalized);
      seg = normalized;
    }
    if (!split_norm) {
      f.route->Encode(seg, at_start, ids);
      continue;
    }
    f.added->Segments(seg, /*normalized=*/true, allowed, &norm);
    for (const TextSegment& n : norm) {
      if (n.added_id >= 0) ids->push_back(static_cast<uint32_t>(n.added_id));
      else f.route->Encode(seg.substr(n.begin, n.end - n.begin), at_start && n.begin == 0, ids);
    }
  }
  TrimScratch(normalized);
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
      RouteIds(text, opt.added != EncodeOptions::Added::kNone, nullptr, ids);
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
  std::string_view added = f_->added->IdText(id);
  if (added.data() != nullptr) {
    token->assign(added);
    return true;
  }
  std::string_view s = f_->model->IdToToken(id);
  if (s.data() == nullptr) return false;
  token->assign(s);
  return true;
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
  f_->model->RuntimeInfo(out);
}

void Tokenizer::AccelSections(std::vector<std::pair<uint32_t, std::string>>* out) const {
  f_->model->AccelSections(f_->bytes->data(), out);
}

const TokenizerInfo& Tokenizer::info() const { return f_->info; }
const Buffer& Tokenizer::bytes() const { return *f_->bytes; }

}  // namespace mtok
