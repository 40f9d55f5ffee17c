// A compiled, immutable tokenizer built from validated .mtok bytes. Safe to
// share between threads: every method is const and keeps no shared state.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mtok/buffer.h"
#include "mtok/encoding.h"
#include "mtok/export.h"
#include "mtok/status.h"

namespace mtok {

struct TokenizerImpl;

// One section of the file, for `mtok inspect`.
struct SectionInfo {
  std::string name;
  std::string type;  // component type name, when the section has one
  uint64_t offset = 0, size = 0;
};

// Truncation and padding the source file switches on (tokenizer.json's
// "truncation" / "padding"); a caller applies them by default, as HF does.
struct EncodeDefaults {
  TruncationParams truncation;      // enabled = the file sets it
  PaddingParams padding;            // enabled = the file sets it
  bool pad_to_multiple_of_set = false;  // HF keeps Some(0) apart from None
};

struct TokenizerInfo {
  std::vector<uint32_t> special_ids, stop_ids, prefix_ids;
  std::string_view chat_template, eos_token, bos_token;
  std::string_view chat_json;  // extension TMPL: named templates and special token texts (JSON)
  uint8_t flags = 0;
  EncodeDefaults encode_defaults;
  std::string model_type;
  std::vector<SectionInfo> sections;
};

// An added token and its HF flags (tokenizers' AddedToken).
struct AddedTokenInfo {
  uint32_t id = 0;
  std::string content;
  bool special = false, lstrip = false, rstrip = false, single_word = false, normalized = false;
};

struct EncodeOptions {
  bool add_special_tokens = true;
  // Which added tokens are matched in the text: all of them, none (tiktoken's
  // encode_ordinary), or those whose ids are in `allowed_ids`.
  enum class Added : uint8_t { kAll, kNone, kAllowed } added = Added::kAll;
  std::vector<uint32_t> allowed_ids;
  // Also fill token strings, word ids and offsets (in characters of the
  // input, as HF's Python API gives them). Ids-only encodes never pay for it.
  bool details = false;
  // An ids-only encode of a long text may cut it where the pre-tokenizer
  // always splits and encode the parts on up to this many threads of the
  // shared pool (1: all on the calling thread). The ids are the same.
  int threads = 1;
  // Texts of fewer bytes stay on the calling thread: the pool's start-up
  // (waking a worker, its cold caches) would eat the gain. Two threads were
  // slower than one up to 128 KB of unseen text in a fresh process, faster
  // from 192 KB (bench/README, "Long inputs").
  static constexpr size_t kSplitMinBytes = size_t{192} << 10;
  // Once the pool's threads have encoded kSplitWarmBytesPerThread of a
  // tokenizer's split parts each (their caches warm), texts from this size
  // are split too: 64 KB windows ran about twice as fast on two threads as
  // on one (bench/README, twenty-second session).
  static constexpr size_t kSplitMinBytesWarm = size_t{64} << 10;
  static constexpr size_t kSplitWarmBytesPerThread = size_t{256} << 10;
  TruncationParams truncation;
  // A single encode pads to `length` or to a multiple; a batch to its longest.
  PaddingParams padding;

  // Only ids, no truncation or padding: the fast paths apply.
  bool plain() const { return !details && !truncation.enabled && !padding.enabled; }
};

class MTOK_API Tokenizer {
 public:
  ~Tokenizer();
  static Status Load(std::shared_ptr<const Buffer> bytes, std::unique_ptr<Tokenizer>* out);

  // text (and pair) must be valid UTF-8.
  Status Encode(std::string_view text, const EncodeOptions& opt, Encoding* out) const;
  // A pair of sequences, as HF's encode(sequence, pair).
  Status EncodePair(std::string_view text, std::string_view pair, const EncodeOptions& opt,
                    Encoding* out) const;
  // Encodes texts[i] (with pairs[i] unless pairs is null) on up to `threads`
  // threads of the shared pool, then pads the batch as HF's encode_batch.
  // Returns the first error.
  Status EncodeBatch(const std::string_view* texts, const std::string_view* pairs, size_t n,
                     const EncodeOptions& opt, int threads, std::vector<Encoding>* out) const;
  // The same, keeping only the ids of each encoding. With `ready`, the
  // calling thread runs ready(k) each time items [0, k) are all encoded
  // (ready(n) last), so it can consume results while the pool encodes the
  // rest; ready must not throw.
  Status EncodeBatchIds(const std::string_view* texts, const std::string_view* pairs, size_t n,
                        const EncodeOptions& opt, int threads,
                        std::vector<std::vector<uint32_t>>* out,
                        const std::function<void(size_t)>* ready = nullptr) const;
  Status EncodeIds(std::string_view text, const EncodeOptions& opt, std::vector<uint32_t>* ids) const;
  std::string Decode(const uint32_t* ids, size_t n, bool skip_special_tokens) const;
  std::vector<std::string> DecodeBatch(const std::vector<std::vector<uint32_t>>& batch,
                                       bool skip_special_tokens, int threads) const;
  // tiktoken's decode_bytes for byte-level BPE: the bytes each token stands
  // for (added tokens as their text), with no UTF-8 step. False when an id
  // is no token; *bad is then that id.
  bool DecodeBytes(const uint32_t* ids, size_t n, std::string* out, uint32_t* bad) const;
  // The same for many id lists on up to `threads` pool threads; false with
  // *bad = the unknown id of the first failing row.
  bool DecodeBytesBatch(const std::vector<std::vector<uint32_t>>& batch, int threads,
                        std::vector<std::string>* out, uint32_t* bad) const;
  // Special tokens the post-processor adds to a single / pair input.
  size_t NumSpecialTokensToAdd(bool pair) const;

  // Token string for an id (added tokens first, as HF); false if unknown.
  bool IdToToken(uint32_t id, std::string* token) const;
  bool TokenToId(std::string_view token, uint32_t* id) const;
  uint32_t VocabSize(bool with_added) const;
  // The model's vocab size, or one past the largest added token id when
  // that is larger: the size to start a table indexed by id at. Unlike
  // VocabSize(true) it looks up no token (in a fresh process each lookup
  // may fault in a page of the file: 1 ms for gemma3's 6,415 added tokens).
  uint32_t IdLimit() const;
  bool IsSpecial(uint32_t id) const;
  // The added tokens with their flags, in the file's order (tokenizer_hf.cc).
  std::vector<AddedTokenInfo> AddedTokens() const;
  // HF's decoder.decode(tokens): the decoder over token strings (joined with
  // spaces when there is no decoder); unknown strings pass through as text.
  std::string DecodeTokens(std::vector<std::string> tokens) const;
  // HF's post_process(encoding, pair, add_special_tokens): truncation, the
  // post-processor and padding of opt applied to encodings made without
  // special tokens. `pair` may be null.
  Status PostProcessEncodings(Encoding encoding, const Encoding* pair, const EncodeOptions& opt,
                              Encoding* out) const;

  // Lookup tables the exporter stores so later loads adopt them (tag, payload).
  void AccelSections(std::vector<std::pair<uint32_t, std::string>>* out) const;
  // (name, value) facts about how this tokenizer runs: its fast path, the
  // storage of its model's tables (debug_info() in Python).
  void RuntimeInfo(std::vector<std::pair<std::string, std::string>>* out) const;

  const TokenizerInfo& info() const;
  const Buffer& bytes() const;

 private:
  Tokenizer();
  Status EncodeSequence(std::string_view text, const EncodeOptions& opt, uint32_t type_id,
                        Encoding* seq) const;
  // EncodeSequence's work; a stage that fails throws StageError.
  void RunPipeline(std::string_view text, const EncodeOptions& opt, uint32_t type_id,
                   Encoding* seq) const;
  // The ids of `text` through the pipeline's ids route (RunPipeline's
  // result without offsets), appended with per-thread buffers only.
  void RouteIds(std::string_view text, bool split_added, const std::vector<bool>* allowed, int threads,
                std::vector<uint32_t>* ids) const;
  Status PostProcess(Encoding* a, Encoding* b, const EncodeOptions& opt, Encoding* out) const;
  std::unique_ptr<TokenizerImpl> f_;
};

}  // namespace mtok
