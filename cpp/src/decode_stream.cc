#include "mtok/decode_stream.h"

namespace mtok {
namespace {

// U+FFFD at the end means the last token ended inside a character.
bool EndsIncomplete(const std::string& s) {
  return s.size() >= 3 && s.compare(s.size() - 3, 3, "\xEF\xBF\xBD") == 0;
}

}  // namespace

Status DecodeStream::Step(const Tokenizer& tok, const uint32_t* ids, size_t n, bool* has_text,
                          std::string* text) {
  *has_text = false;
  if (prefix_.empty() && !ids_.empty()) {
    std::string p = tok.Decode(ids_.data(), ids_.size(), skip_special_tokens_);
    if (!EndsIncomplete(p)) {
      prefix_ = std::move(p);
      prefix_index_ = ids_.size();
    }
  }
  ids_.insert(ids_.end(), ids, ids + n);
  std::string s = tok.Decode(ids_.data(), ids_.size(), skip_special_tokens_);
  if (s.size() <= prefix_.size() || EndsIncomplete(s)) return Status::Ok();
  if (s.compare(0, prefix_.size(), prefix_) != 0) {
    return EncodeError("Invalid prefix encountered while decoding stream. Token ID: " +
                       std::to_string(ids_.back()) + ", Expected prefix: '" + prefix_ +
                       "', Actual string: '" + s + "'");
  }
  *text = s.substr(prefix_.size());
  *has_text = true;
  // Keep only the ids after the old prefix: they give the next prefix its context.
  const size_t new_prefix_index = ids_.size() - prefix_index_;
  ids_.erase(ids_.begin(), ids_.begin() + prefix_index_);
  prefix_ = tok.Decode(ids_.data(), ids_.size(), skip_special_tokens_);
  prefix_index_ = new_prefix_index;
  return Status::Ok();
}

}  // namespace mtok
