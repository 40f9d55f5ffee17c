// Characters that byte-level BPE assembles into one token before any of
// their bytes can merge with a neighbour: a word's merge loop may start
// from that token instead of the character's 2 or 3 bytes, and skip their
// merges.
//
// A character folds when replaying BPE on its bytes alone ends in one
// token T, and no neighbour can interfere: at every step the pair merged
// ranks below any merge that could take the current first symbol from a
// left neighbour (a token ending at a character boundary: last byte below
// 0xC0) or the current last symbol into a right neighbour (a token starting
// at one: ASCII or a lead byte), and no such merge with T itself ranks
// below T's own. Text then merges to the same ids with or without folding.
// Such a character folds everywhere (section BFLD: a third of the Chinese
// and Russian characters of the test texts, for Llama 3).
//
// Most of the others can be interfered with by a few neighbours only (the
// tokens that may take a step's symbol first: a space, or one or two
// characters, for most CJK characters of Llama 3). Such a character folds
// where none of those neighbours' bytes lies next to it in the piece: a
// neighbour symbol is a token whose bytes are the text beside the
// character, so one that is not there cannot take anything (section BFLC:
// with it, 93-95% of the Chinese and Japanese characters of the test texts
// fold, 78-92% of Russian, Greek and Arabic ones).
// The tables are computed at export and optional: without them every
// character starts as bytes.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "common/bit_count.h"
#include "common/load_le.h"
#include "models/bpe/raw_tables.h"
#include "mtok/status.h"

namespace mtok {

class CharFold {
 public:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  // A character that folds by its neighbours has at most this many on
  // each side that may interfere, each of at most kMaxNeighbourBytes.
  static constexpr size_t kMaxNeighbours = 4, kMaxNeighbourBytes = 8;

  bool empty() const { return ids_.empty() && in_context_.empty(); }
  size_t size() const { return ids_.size(); }                  // folding everywhere
  size_t in_context_size() const { return in_context_.size(); }  // folding by the neighbours

  // The token of the 2- or 3-byte character at s[i], with its length in
  // *len; kNone when it does not fold there (or the bytes are not one
  // valid character). s is the whole piece being merged: the neighbours
  // that matter are in it.
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
    const uint64_t bit = uint64_t{1} << (cp & 63);
    const uint64_t word = bits_[cp >> 6];
    if (word & bit) return ids_[before_[cp >> 6] + static_cast<uint32_t>(BitCount(word & (bit - 1)))];
    const uint64_t cword = context_bits_[cp >> 6];
    if ((cword & bit) == 0) return kNone;
    return InContext(s, i, *len, in_context_[context_before_[cp >> 6] + static_cast<uint32_t>(BitCount(cword & (bit - 1)))]);
  }

  // BFLD payload: [u32 count][u32 0][u64 bits[1024]] (bit c: code point c
  // folds), then count x u32 token ids in code point order.
  std::string Payload() const;
  // Validates a BFLD payload against the model's raw token bytes (each id
  // must be its character's token) and copies it in.
  static Status Parse(std::string_view payload, const RawTables& raw, CharFold* out);
  // BFLC payload: [u32 count][u32 neighbour_count][u64 bits[1024]] (bit c:
  // code point c folds by its neighbours), count x {u32 id, u16 first, u8
  // left, u8 right} in code point order (neighbours [first, first + left)
  // on the left, the right ones after them), then neighbour_count x {u64
  // bytes (little-endian, zero past them), u32 length (1..8), u32 0}.
  // Empty when no character folds so.
  std::string ContextPayload() const;
  // Validates a BFLC payload as Parse does a BFLD one, and adds it to *out
  // (parsed from BFLD first, when the file has it: no character may be in
  // both). On an error the load fails and *out is not used.
  static Status ParseContext(std::string_view payload, const RawTables& raw, CharFold* out);
  // Adds a character that folds everywhere, or (AddInContext) one that
  // folds unless one of `left` ends right before it or one of `right`
  // starts right after it (at most kMaxNeighbours each, of 1 to
  // kMaxNeighbourBytes bytes; left out, starting as bytes, when the
  // neighbours no longer fit the records' 16-bit index); code points in
  // increasing order. Index() after the last one.
  void Add(char32_t cp, uint32_t id);
  void AddInContext(char32_t cp, uint32_t id, const std::vector<std::string>& left,
                    const std::vector<std::string>& right);
  void Index();

 private:
  static constexpr size_t kWords = 1024;  // 64K code points, one bit each
  struct Context {
    uint32_t id;
    uint16_t first;  // its neighbours: neighbours_[first, first + left + right)
    uint8_t left, right;
  };
  struct Neighbour {
    uint64_t bytes;  // little-endian, zero past len
    uint32_t len, zero;
  };
  static_assert(sizeof(Context) == 8 && sizeof(Neighbour) == 16, "the BFLC record layouts");

  // c.id, unless one of its neighbours lies beside the character at
  // s[i, i + len). The bytes on each side are read once, as a word (up to
  // 8 of them), and each neighbour compared with its end of it: a byte
  // loop per neighbour took most of a CJK clause's fold look-ups.
  uint32_t InContext(std::string_view s, size_t i, size_t len, const Context& c) const {
    const Neighbour* n = neighbours_.data() + c.first;
    if (c.left != 0 && i != 0) {
      // s[i - 8, i), s[i - 1] in the top byte (fewer at the start, zero below).
      const uint64_t before = i >= 8 ? LoadLe64(s.data() + i - 8) : LoadLeBytes(s.data(), i) << (8 * (8 - i));
      for (size_t k = 0; k < c.left; ++k) {
        if (i >= n[k].len && before >> (8 * (8 - n[k].len)) == n[k].bytes) return kNone;
      }
    }
    n += c.left;
    const size_t j = i + len, after_len = s.size() - j;
    if (c.right != 0 && after_len != 0) {
      // s[j, j + 8), s[j] in the low byte (fewer at the end, zero above).
      const uint64_t after = after_len >= 8 ? LoadLe64(s.data() + j) : LoadLeBytes(s.data() + j, after_len);
      for (size_t k = 0; k < c.right; ++k) {
        const uint64_t mask = n[k].len < 8 ? (uint64_t{1} << (8 * n[k].len)) - 1 : ~uint64_t{0};
        if (after_len >= n[k].len && (after & mask) == n[k].bytes) return kNone;
      }
    }
    return c.id;
  }
  // Checks the bitmap's characters against their ids (each its
  // character's token); `what` names the section.
  static Status CheckIds(const uint64_t* bits, size_t count, const std::function<uint32_t(size_t)>& id_of,
                         const RawTables& raw, const char* what);

  uint64_t bits_[kWords] = {};
  uint32_t before_[kWords] = {};  // folding code points below word k
  std::vector<uint32_t> ids_;
  uint64_t context_bits_[kWords] = {};
  uint32_t context_before_[kWords] = {};
  std::vector<Context> in_context_;
  std::vector<Neighbour> neighbours_;
  // While adding: where each list of neighbours already is in neighbours_
  // (characters of one script share a few lists).
  std::map<std::pair<std::vector<std::string>, std::vector<std::string>>, uint16_t> lists_;
};

}  // namespace mtok
