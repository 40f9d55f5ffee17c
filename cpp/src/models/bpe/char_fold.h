// Characters that byte-level BPE always assembles into one token, whatever
// text surrounds them: a word's merge loop may start from that token
// instead of the character's 2 or 3 bytes, and skip their merges (a third
// of the Chinese and Russian characters of the test texts, for Llama 3).
//
// A character folds when replaying BPE on its bytes alone ends in one
// token T, and no neighbour can interfere: at every step the pair merged
// ranks below any merge that could take the current first symbol from a
// left neighbour (a token ending at a character boundary: last byte below
// 0xC0) or the current last symbol into a right neighbour (a token starting
// at one: ASCII or a lead byte), and no such merge with T itself ranks
// below T's own. Text then merges to the same ids with or without folding.
// The table is computed at export (section BFLD) and optional: without it
// every character starts as bytes.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/bit_count.h"
#include "models/bpe/raw_tables.h"
#include "mtok/status.h"

namespace mtok {

class CharFold {
 public:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;

  bool empty() const { return ids_.empty(); }
  size_t size() const { return ids_.size(); }

  // The token of the 2- or 3-byte character at s[i], with its length in
  // *len; kNone when it does not fold (or the bytes are not one valid
  // character).
  uint32_t Find(std::string_view s, size_t i, size_t* len) const {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data()) + i;
    const size_t left = s.size() - i;
    char32_t cp;
    if (p[0] >= 0xC2 && p[0] <= 0xDF) {
      if (left < 2 || (p[1] & 0xC0) != 0x80) return kNone;
      cp = (char32_t{p[0] & 0x1Fu} << 6) | (p[1] & 0x3Fu);
      *len = 2;
    } else if ((p[0] & 0xF0) == 0xE0) {
      if (left < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80) return kNone;
      cp = (char32_t{p[0] & 0x0Fu} << 12) | (char32_t{p[1] & 0x3Fu} << 6) | (p[2] & 0x3Fu);
      if (cp < 0x800) return kNone;  // overlong
      *len = 3;
    } else {
      return kNone;
    }
    const uint64_t word = bits_[cp >> 6], below = word & ((uint64_t{1} << (cp & 63)) - 1);
    if (((word >> (cp & 63)) & 1) == 0) return kNone;
    return ids_[before_[cp >> 6] + static_cast<uint32_t>(BitCount(below))];
  }

  // BFLD payload: [u32 count][u32 0][u64 bits[1024]] (bit c: code point c
  // folds), then count x u32 token ids in code point order.
  std::string Payload() const;
  // Validates a BFLD payload against the model's raw token bytes (each id
  // must be its character's token) and copies it in.
  static Status Parse(std::string_view payload, const RawTables& raw, CharFold* out);
  // Adds a folding character (code points in increasing order); Index()
  // after the last one.
  void Add(char32_t cp, uint32_t id);
  void Index();

 private:
  static constexpr size_t kWords = 1024;  // 64K code points, one bit each

  uint64_t bits_[kWords] = {};
  uint32_t before_[kWords] = {};  // folding code points below word k
  std::vector<uint32_t> ids_;
};

}  // namespace mtok
