// Where a byte-level BPE piece may be encoded in parts. Every symbol of the
// merge loop is a vocab token whose bytes are the input bytes it covers (a
// merge joins two symbols into the token that is their concatenation: HF's
// rule, checked when merges are read, and a PHSH section's merged ids are
// trusted as its ranks are). So at a point p of a piece that no occurrence
// of a token's bytes lies across, no merge ever joins the two sides, and
// encoding the parts apart gives the ids of the whole (each part's
// lowest-rank, leftmost-first order is the same alone). CJK clauses, one
// pre-token each in Llama 3 style patterns, cut this way into parts of a
// few characters that recur in text, where the clauses do not.
//
// The test is conservative: a bitmap of the 2-4 bytes around the inner
// points of every token. An occurrence across p, l bytes to its left and r
// to its right, holds the window s[p - min(l, 2), p + min(r, 2)); if no
// token has that window at an inner point with the same l, r class, no
// occurrence crosses p. A window's bit is shared with others (a hash), so
// a false "may" only loses a cut. Only points before a byte of 0xE0 and
// above (the start of a character of 3 or 4 bytes: where CJK text cuts)
// are tracked, which keeps the table small and quick to build (Llama 3:
// 12,000 of its tokens' 700,000 inner points).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/bpe/raw_tables.h"
#include "mtok/status.h"

namespace mtok {

class TokenSpans {
 public:
  TokenSpans() = default;
  TokenSpans(TokenSpans&&) = default;  // bits_ may point into owned_, whose buffer moves along
  TokenSpans& operator=(TokenSpans&&) = default;
  TokenSpans(const TokenSpans&) = delete;
  TokenSpans& operator=(const TokenSpans&) = delete;

  // The windows of every token of `raw`.
  static TokenSpans Build(const RawTables& raw);
  bool empty() const { return bits_ == nullptr; }

  // BSPN payload: [u32 kBits][u32 0] then 2^kBits / 64 u64 words (bit b of
  // the table is bit b % 64 of word b / 64).
  std::string Payload() const;
  // Checks the layout and adopts the words in place; the bits are trusted
  // as the pair ranks are (a wrong bit changes where pieces are cut, never
  // memory safety). `payload` must outlive the table and be 8-byte aligned.
  static Status Parse(std::string_view payload, TokenSpans* out);

  // False when no token's bytes can occur in s across byte p (0 < p <
  // s.size()); true at every point that is not tracked.
  bool MaySpan(std::string_view s, size_t p) const {
    return static_cast<unsigned char>(s[p]) < kTracked || MaySpanTracked(s, p);
  }

 private:
  static constexpr unsigned char kTracked = 0xE0;  // the bytes a tracked point comes before
  bool MaySpanTracked(std::string_view s, size_t p) const;
  // Sets the windows of the point before tok[q] (0 < q < tok.size()).
  void AddPoint(std::string_view tok, size_t q);
  // Window classes, by the bytes an occurrence has on each side of the
  // point: one, or two and more.
  enum Class : uint64_t { k11 = 1, k12, k21, k22 };
  // 128 KB: Qwen3, with the most tracked windows of the corpus tokenizers
  // (15,500), sets about 1.5% of the bits.
  static constexpr int kBits = 20;
  static uint64_t Bit(Class c, uint32_t window) {
    return ((c << 32 | window) * 0x9E3779B97F4A7C15ULL) >> (64 - kBits);
  }
  static constexpr size_t kWords = (size_t{1} << kBits) / 64;
  bool Has(Class c, uint32_t window) const {
    const uint64_t b = Bit(c, window);
    return (bits_[b / 64] >> (b % 64)) & 1;
  }
  void Set(Class c, uint32_t window) {
    const uint64_t b = Bit(c, window);
    owned_[b / 64] |= uint64_t{1} << (b % 64);
  }
  std::vector<uint64_t> owned_;  // built here, else empty
  const uint64_t* bits_ = nullptr;  // kWords words: owned_'s or the file's
};

}  // namespace mtok
