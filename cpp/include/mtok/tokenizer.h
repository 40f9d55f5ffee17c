// A compiled, immutable tokenizer built from validated .mtok bytes. Safe to
// share between threads: every method is const and keeps no shared state.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mtok/buffer.h"
#include "mtok/status.h"

namespace mtok {

struct Encoding;
struct LoadedFile;

// One section of the file, for `mtok inspect`.
struct SectionInfo {
  std::string name;
  std::string type;  // component type name, when the section has one
  uint64_t offset = 0, size = 0;
};

struct TokenizerInfo {
  std::vector<uint32_t> special_ids, stop_ids, prefix_ids;
  std::string_view chat_template, eos_token, bos_token;
  std::string_view named_templates_json;  // extension: {"name": "template", ...}
  uint8_t flags = 0;
  std::string model_type;
  std::vector<SectionInfo> sections;
};

struct EncodeOptions {
  bool add_special_tokens = true;
  // Which added tokens are matched in the text: all of them, none (tiktoken's
  // encode_ordinary), or those whose ids are in `allowed_ids`.
  enum class Added : uint8_t { kAll, kNone, kAllowed } added = Added::kAll;
  std::vector<uint32_t> allowed_ids;
};

class Tokenizer {
 public:
  ~Tokenizer();
  static Status Load(std::shared_ptr<const Buffer> bytes, std::unique_ptr<Tokenizer>* out);

  // text must be valid UTF-8.
  Status Encode(std::string_view text, const EncodeOptions& opt, Encoding* out) const;
  Status EncodeIds(std::string_view text, const EncodeOptions& opt, std::vector<uint32_t>* ids) const;
  std::string Decode(const uint32_t* ids, size_t n, bool skip_special_tokens) const;

  // Token string for an id (added tokens first, as HF); false if unknown.
  bool IdToToken(uint32_t id, std::string* token) const;
  bool TokenToId(std::string_view token, uint32_t* id) const;
  uint32_t VocabSize(bool with_added) const;
  bool IsSpecial(uint32_t id) const;

  const TokenizerInfo& info() const;
  const Buffer& bytes() const;

 private:
  Tokenizer();
  std::unique_ptr<LoadedFile> f_;
};

}  // namespace mtok
