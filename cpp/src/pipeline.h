// The data that flows between pipeline stages, and the stage interfaces.
//
// A Piece is a run of text plus, when offsets are tracked, the span of the
// original input that each of its bytes came from. Normalizers rewrite a
// piece, pre-tokenizers split pieces, the model turns a piece into tokens.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mtok/status.h"
#include "stage_shapes.h"

namespace mtok {

// Thrown by a stage that cannot finish its piece (a regex over its
// backtracking budget) through the void stage interfaces below; Tokenizer
// catches it and returns the Status. It never leaves the core.
struct StageError {
  Status status;
};
inline void ThrowIfError(Status st) {
  if (!st.ok()) throw StageError{std::move(st)};
}

struct Span {
  uint32_t begin = 0, end = 0;
};

struct Piece {
  std::string text;
  std::vector<Span> align;  // per byte of text; empty when offsets are not tracked
  int64_t added_id = -1;    // >= 0: an added token, passed through untouched
  uint32_t word = 0;        // index of the pre-token (for word ids)
  bool at_input_start = false;  // starts at offset 0 of the input (Metaspace "first")
};

// Appends output text with the original span it stands for. Keeps `align`
// in step with `text` when tracking is on.
class PieceBuilder {
 public:
  explicit PieceBuilder(bool track) : track_(track) {}
  void Append(std::string_view s, Span src) {
    out_.text.append(s);
    if (track_) out_.align.insert(out_.align.end(), s.size(), src);
  }
  // Copies bytes [b, e) of `from`, keeping their alignment.
  void Copy(const Piece& from, size_t b, size_t e) {
    out_.text.append(from.text, b, e - b);
    if (track_) out_.align.insert(out_.align.end(), from.align.begin() + b, from.align.begin() + e);
  }
  Span SpanOf(const Piece& from, size_t b, size_t e) const {
    if (!track_ || from.align.empty() || b >= e) return Span{};
    return Span{from.align[b].begin, from.align[e - 1].end};
  }
  bool track() const { return track_; }
  Piece& piece() { return out_; }
  Piece Take() { return std::move(out_); }

 private:
  bool track_;
  Piece out_;
};

// Sub-piece [b, e) of p, keeping alignment.
Piece SubPiece(const Piece& p, size_t b, size_t e);

struct Token {
  uint32_t id;
  uint32_t begin, end;  // byte range in the piece text the model saw
};

class Normalizer {
 public:
  virtual ~Normalizer() = default;
  // Rewrites p in place (text and, when tracked, align).
  virtual void Normalize(Piece* p) const = 0;
  // *out = the normalized `text`, without offsets. `text` must not point
  // into *out. Reuses per-thread buffers: a warm call allocates nothing
  // when *out is reused and the stages do not allocate.
  void NormalizeText(std::string_view text, std::string* out) const;
  // True when a quick check proves Normalize leaves `text` as it is (false
  // means only "not proven").
  virtual bool LeavesAlone(std::string_view /*text*/) const { return false; }
  // True when the form of a text cut right after a line break is the two
  // parts' forms joined, so that a long segment's parts may be normalized
  // on their threads (fast_paths/split_encode.h).
  virtual bool FormSplitsAfterLineBreak() const { return false; }
  // Appends the shapes of the stages this normalizer runs, in order (for
  // the fast paths; stage_shapes.h). The default: OtherStage.
  virtual void Describe(std::vector<NormalizerStage>* out) const;
};

class PreTokenizer {
 public:
  virtual ~PreTokenizer() = default;
  // Splits or rewrites every piece whose added_id < 0; others pass through.
  virtual void Apply(std::vector<Piece>* pieces) const = 0;
  // Appends the shapes of the stages this pre-tokenizer runs, in order
  // (stage_shapes.h). The default: OtherStage.
  virtual void Describe(std::vector<PreTokenizerStage>* out) const { out->push_back(OtherStage{}); }
};

class Model {
 public:
  virtual ~Model() = default;
  virtual void Tokenize(const Piece& p, std::vector<Token>* out) const = 0;
  // Appends the ids of `text` (Tokenize without offsets); models override
  // it when they can skip building tokens.
  virtual void AppendIds(std::string_view text, std::vector<uint32_t>* ids) const;
  virtual std::string_view IdToToken(uint32_t id) const = 0;  // empty when unknown
  virtual bool TokenToId(std::string_view token, uint32_t* id) const = 0;
  virtual uint32_t VocabSize() const = 0;  // number of entries in the model vocab
  virtual uint32_t IdLimit() const = 0;    // 1 + the largest id of the model vocab
  // True when HF's token string for this id is the text it covers rather
  // than the vocab entry (Unigram's unknown token).
  virtual bool TokenIsText(uint32_t /*id*/) const { return false; }
  // Lookup tables to store in the file so the next load adopts them
  // instead of building them: (trailer tag, payload).
  // `base` is the start of the file the model was read from.
  virtual void AccelSections(const uint8_t* /*base*/,
                             std::vector<std::pair<uint32_t, std::string>>*) const {}
  // (name, value) facts about how the loaded model runs, for debug_info().
  virtual void RuntimeInfo(std::vector<std::pair<std::string, std::string>>*) const {}
};

class Decoder {
 public:
  virtual ~Decoder() = default;
  // Rewrites the token strings in place (HF decode_chain semantics).
  virtual void Decode(std::vector<std::string>* tokens) const = 0;
};

// Applies fn(piece, out) to every piece with added_id < 0, replacing it with
// whatever fn appended; other pieces are moved through unchanged.
template <typename Fn>
void SplitEach(std::vector<Piece>* pieces, Fn fn) {
  std::vector<Piece> out;
  out.reserve(pieces->size() * 2);
  for (Piece& p : *pieces) {
    if (p.added_id >= 0) {
      out.push_back(std::move(p));
    } else {
      fn(p, &out);
    }
  }
  pieces->swap(out);
}

}  // namespace mtok
