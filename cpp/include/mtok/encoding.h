// The result of encoding one input (HF tokenizers' Encoding), and the
// truncation and padding settings applied to it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mtok {

struct Encoding {
  std::vector<uint32_t> ids, type_ids;
  std::vector<uint8_t> special_mask, attention_mask;
  // Filled only when details were asked for (EncodeOptions::details).
  std::vector<std::string> tokens;
  std::vector<int32_t> words;  // -1: no word (special tokens, padding)
  std::vector<std::pair<uint32_t, uint32_t>> offsets;
  bool detailed = false;
  // Pieces cut off by truncation, each a full encoding of its own.
  std::vector<Encoding> overflowing;
  // Token range of sequence 0 and 1 (HF sequence_ranges); unset: the whole.
  struct Range {
    bool set = false;
    uint32_t begin = 0, end = 0;
  } sequences[2];

  size_t size() const { return ids.size(); }
};

enum class Side : uint8_t { kRight = 0, kLeft = 1 };

struct TruncationParams {
  bool enabled = false;
  size_t max_length = 512;
  size_t stride = 0;
  enum class Strategy : uint8_t { kLongestFirst, kOnlyFirst, kOnlySecond } strategy =
      Strategy::kLongestFirst;
  Side direction = Side::kRight;
};

struct PaddingParams {
  bool enabled = false;
  Side direction = Side::kRight;
  uint32_t pad_id = 0, pad_type_id = 0;
  std::string pad_token = "[PAD]";
  bool fixed = false;  // pad to `length`; otherwise to the longest in the batch
  size_t length = 0;
  size_t pad_to_multiple_of = 0;  // 0: off
};

// The length every encoding of a batch is padded to.
size_t PadTarget(size_t longest, const PaddingParams& p);

}  // namespace mtok
