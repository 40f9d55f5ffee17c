#include "models/bpe/token_spans.h"

#include <cstring>

#include "common/load_le.h"

namespace mtok {

namespace {

// Bytes [at, at + n) of s as a little-endian word (n <= 4).
uint32_t Window(std::string_view s, size_t at, size_t n) {
  return static_cast<uint32_t>(LoadLeBytes(s.data() + at, n));
}

}  // namespace

void TokenSpans::AddPoint(std::string_view tok, size_t q) {
  const bool two_left = q >= 2, two_right = tok.size() - q >= 2;
  const Class c = two_left ? (two_right ? k22 : k21) : (two_right ? k12 : k11);
  const size_t from = q - (two_left ? 2 : 1);
  Set(c, Window(tok, from, q + (two_right ? 2 : 1) - from));
}

TokenSpans TokenSpans::Build(const RawTables& raw) {
  TokenSpans t;
  t.owned_.assign(kWords, 0);
  t.bits_ = t.owned_.data();
  if (raw.count == 0) return t;
  const uint32_t* off = raw.offsets;
  bool ascending = off[raw.count] <= raw.bytes_size;
  for (uint32_t id = 0; ascending && id < raw.count; ++id) ascending = off[id] <= off[id + 1];
  if (!ascending) {  // a damaged file's offsets: token by token (Token skips the bad ones)
    for (uint32_t id = 0; id < raw.count; ++id) {
      const std::string_view tok = raw.Token(id);
      for (size_t q = 1; q < tok.size(); ++q) {
        if (static_cast<unsigned char>(tok[q]) >= kTracked) t.AddPoint(tok, q);
      }
    }
    return t;
  }
  // The tokens' bytes lie one after another in id order: the bytes of
  // 0xE0 and above (a few in a hundred) are found eight at a time over the
  // whole run, then placed in their tokens (the first byte of a token
  // starts no inner point). Bit 7 of byte k of w & w << 1 & w << 2 is its
  // bits 7, 6 and 5 together.
  static_assert(kTracked == 0xE0, "the word test finds bytes of 0xE0 and above");
  const char* bytes = raw.bytes;
  const size_t end = off[raw.count];
  uint32_t id = 0;
  auto add = [&](size_t pos) {
    while (off[id + 1] <= pos) ++id;  // pos < off[count]: stops at the token holding pos
    if (pos > off[id]) t.AddPoint(std::string_view(bytes + off[id], off[id + 1] - off[id]), pos - off[id]);
  };
  size_t pos = off[0];
  for (; pos + 8 <= end; pos += 8) {
    const uint64_t w = LoadLe64(bytes + pos);
    for (uint64_t m = w & w << 1 & w << 2 & 0x8080808080808080ULL; m != 0; m &= m - 1)
      add(pos + static_cast<size_t>(__builtin_ctzll(m)) / 8);
  }
  for (; pos < end; ++pos) {
    if (static_cast<unsigned char>(bytes[pos]) >= kTracked) add(pos);
  }
  return t;
}

std::string TokenSpans::Payload() const {
  const uint32_t head[2] = {kBits, 0};
  std::string out(reinterpret_cast<const char*>(head), 8);
  out.append(reinterpret_cast<const char*>(bits_), kWords * sizeof(uint64_t));
  return out;
}

Status TokenSpans::Parse(std::string_view payload, TokenSpans* out) {
  auto fail = [](const std::string& what) { return FormatError("extension section BSPN: " + what); };
  uint32_t head[2];
  if (payload.size() < 8) return fail("too short");
  std::memcpy(head, payload.data(), 8);
  if (head[0] != kBits || head[1] != 0)
    return fail("a table of 2^" + std::to_string(head[0]) + " bits, this reader's has 2^" + std::to_string(kBits));
  if (payload.size() != 8 + kWords * sizeof(uint64_t)) return fail("size does not match");
  if (reinterpret_cast<uintptr_t>(payload.data()) % 8 != 0) return fail("misaligned");
  out->owned_.clear();
  out->bits_ = reinterpret_cast<const uint64_t*>(payload.data() + 8);
  return Status::Ok();
}

bool TokenSpans::MaySpanTracked(std::string_view s, size_t p) const {
  if (p >= 2 && p + 2 <= s.size()) {
    // Inside the piece (most points): one load, the four windows of it.
    const uint32_t w = LoadLe32(s.data() + p - 2);
    return Has(k22, w) || Has(k11, (w >> 8) & 0xFFFF) || Has(k12, w >> 8) || Has(k21, w & 0xFFFFFF);
  }
  return Has(k11, Window(s, p - 1, 2)) || (p + 2 <= s.size() && Has(k12, Window(s, p - 1, 3))) ||
         (p >= 2 && Has(k21, Window(s, p - 2, 3)));
}

}  // namespace mtok
