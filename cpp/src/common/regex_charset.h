// Character sets for the regex engine: CharSet is an exact set of code
// points as sorted ranges, used while compiling (union, complement, case
// closure); CharTable is its compiled form with an O(1) membership test.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "common/unicode.h"

namespace mtok::regex_internal {

class CharSet {
 public:
  void Add(char32_t first, char32_t last);
  void Add(char32_t cp) { Add(cp, cp); }
  void Add(const CharSet& other);
  // Adds every code point whose General_Category bit is set in `mask`
  // (bit i = Category i).
  void AddCategories(uint32_t mask);
  void AddWhiteSpace();
  // Unicode \w: Alphabetic, M, Nd, Pc (without Join_Control).
  void AddWord();
  // Complement within U+0000..U+10FFFF.
  void Negate();
  // Adds every code point that has the same simple case folding as a member.
  void CloseCase();

  bool Contains(char32_t cp) const;
  bool Empty() const { return Ranges().empty(); }
  // True when some member's full case folding has several code points (ß).
  bool HasMultiCharFold() const;
  // Sorted, disjoint, non-adjacent ranges.
  const std::vector<unicode::CodePointRange>& Ranges() const;
  bool operator==(const CharSet& other) const;

 private:
  // Normalized lazily by Ranges(); a set that is not dirty is never written
  // by const methods, so shared sets can be read from several threads.
  mutable std::vector<unicode::CodePointRange> ranges_;
  mutable bool dirty_ = false;
};

// The code points that simple-fold together with cp, cp included (1 to 4).
std::vector<char32_t> CaseOrbit(char32_t cp);

class CharTable {
 public:
  explicit CharTable(const CharSet& set);

  bool Contains(char32_t cp) const {
    if (cp < 0x80) return (ascii_[cp >> 6] >> (cp & 63)) & 1;
    if (cp >= 0x110000) return false;
    const uint64_t* block = &bits_[static_cast<size_t>(index_[cp >> 8]) * 4];
    return (block[(cp >> 6) & 3] >> (cp & 63)) & 1;
  }
  // Whether a member's UTF-8 form can start with byte b.
  bool MayStartWith(unsigned char b) const { return (lead_[b >> 6] >> (b & 63)) & 1; }

 private:
  uint64_t ascii_[2] = {0, 0};
  uint64_t lead_[4] = {0, 0, 0, 0};
  std::vector<uint16_t> index_;  // per 256 code points: block number in bits_
  std::vector<uint64_t> bits_;   // 4 words per distinct block
};

}  // namespace mtok::regex_internal
