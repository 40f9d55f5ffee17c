// What HF's BertNormalizer (when the route runs it) and then the
// BertPreTokenizer do to each code point, for the WordPiece route.
//
// Both stages work code point by code point, except the canonical
// reordering inside NFD (strip_accents): it only matters between two
// surviving combining marks of nonzero class from different code points,
// and the entries flag the code points that have such marks (kReorder) so
// the route can normalize that stretch exactly instead.
//
// Entries are made on first use, a page of 256 code points at a time, and
// published atomically: threads share them, and a tokenizer that sees only
// Latin text builds a few pages. Code points past the last page are
// computed at each use.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace mtok {

struct BertOptions {
  bool normalizes = false;  // the route runs the BertNormalizer with:
  bool clean_text = false, handle_chinese_chars = false, strip_accents = false, lowercase = false;
};

class BertCodePoints {
 public:
  enum Kind : uint8_t {
    kAppend,   // `out` (maybe empty) continues the current word
    kBreak,    // white space: ends the current word
    kIsolate,  // `out` is one character that stands alone (punctuation, CJK)
    kMixed,    // `out` mixes those: each character by its class
    kLong,     // like kMixed, but `out` does not fit: see Normalized()
    kReorder,  // has a surviving combining mark of nonzero class
  };
  // `out` comes first: a copy of 16 bytes from it stays inside the entry.
  struct Entry {
    char out[13];      // the normalized code point, UTF-8
    uint8_t kind;
    uint8_t len;       // bytes of out
    bool leads_mark;   // its NFD starts with a nonzero combining class
  };
  static_assert(sizeof(Entry) == 16, "an entry is 16 bytes");

  explicit BertCodePoints(BertOptions opt);
  ~BertCodePoints();

  const Entry& At(char32_t cp) const {
    const size_t page = cp >> 8;
    if (page < kPages) {
      const Entry* p = pages_[page].load(std::memory_order_acquire);
      if (p == nullptr) p = MakePage(page);
      return p[cp & 0xFF];
    }
    return Uncached(cp);
  }
  // The normalized code point, as code points (any kind).
  void Normalized(char32_t cp, std::u32string* out) const;

  // The pre-tokenizer's classes of a normalized character.
  static bool IsSpace(char32_t c);
  static bool IsPunctuation(char32_t c);

 private:
  static constexpr size_t kPages = 0x300;  // planes 0-2: every script in use
  const Entry* MakePage(size_t page) const;
  const Entry& Uncached(char32_t cp) const;
  // The normalized code point; *leads_mark and *reorder as the entry's.
  void Steps(char32_t cp, std::u32string* out, bool* leads_mark, bool* reorder) const;
  void Fill(char32_t cp, Entry* e) const;
  bool FillQuick(char32_t cp, Entry* e) const;

  BertOptions opt_;
  mutable std::unique_ptr<std::atomic<const Entry*>[]> pages_;
};

}  // namespace mtok
