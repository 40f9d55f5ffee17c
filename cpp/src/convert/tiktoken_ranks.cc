// The converter's fast path for .tiktoken rank files: parse_ranks() and
// spec_from_ranks() of src/mtok/convert/tiktoken_file.py, and the model
// section format/models.py writes for that spec.
#include <algorithm>
#include <iterator>

#include "common/utf8.h"
#include "convert/dict_vocab.h"
#include "io/codes.h"
#include "mtok/convert.h"

namespace mtok::convert {

namespace {

namespace code = codes::model;

// The 6-bit value of each base64 character; -1 for the others.
struct Base64Table {
  int8_t value[256];
  Base64Table() {
    std::fill(std::begin(value), std::end(value), int8_t{-1});
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i) value[static_cast<unsigned char>(alphabet[i])] = static_cast<int8_t>(i);
  }
};

// base64.b64decode(s, validate=True): the alphabet, then '=' padding to a
// multiple of four characters. The bytes go to the start of *out, grown
// when too small and never shrunk (two resizes per token were a tenth of a
// conversion's instructions), their count to *n.
bool Base64(std::string_view s, std::string* out, size_t* n) {
  static const Base64Table table;
  if (s.empty() || s.size() % 4 != 0) return false;
  size_t pad = s.back() == '=' ? (s[s.size() - 2] == '=' ? 2 : 1) : 0;
  if (out->size() < s.size() / 4 * 3) out->resize(s.size() / 4 * 3);
  char* w = out->data();
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < s.size() - pad; ++i) {
    const int v = table.value[static_cast<unsigned char>(s[i])];
    if (v < 0) return false;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      *w++ = static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  *n = static_cast<size_t>(w - out->data());
  return true;
}

// GPT-2's byte -> printable character table, as UTF-8 (1 or 2 bytes).
struct ByteChars {
  char chars[256][2];
  uint8_t size[256];
  ByteChars() {
    uint32_t extra = 256;
    for (uint32_t b = 0; b < 256; ++b) {
      bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
      std::string c;
      utf8::append(c, printable ? b : extra++);
      size[b] = static_cast<uint8_t>(c.size());
      for (size_t i = 0; i < c.size(); ++i) chars[b][i] = c[i];
    }
  }
};

bool Blank(char c) { return c == ' ' || c == '\t'; }

}  // namespace

bool ConvertTiktokenRanks(std::string_view data, std::string* section, uint32_t* tokens) {
  static const ByteChars table;
  DictVocab vocab;
  // The arena at its bound (base64 is 4/3 of the bytes, a character at most
  // 2), written through a cursor and cut to size at the end.
  vocab.arena.resize(data.size() * 3 / 2 + 16);
  size_t used = 0;
  vocab.entries.reserve(data.size() / 12);
  std::string raw;
  size_t raw_size = 0;
  bool single[256] = {};
  size_t pos = 0;
  while (pos < data.size()) {
    size_t end = data.find('\n', pos);
    if (end == std::string_view::npos) end = data.size();
    std::string_view line = data.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t i = 0;
    while (i < line.size() && Blank(line[i])) ++i;
    if (i == line.size()) continue;  // blank line
    size_t t = i;
    while (i < line.size() && !Blank(line[i])) ++i;
    std::string_view b64 = line.substr(t, i - t);
    while (i < line.size() && Blank(line[i])) ++i;
    size_t r = i;
    uint64_t rank = 0;
    for (; i < line.size() && line[i] >= '0' && line[i] <= '9' && i - r < 9; ++i) rank = rank * 10 + (line[i] - '0');
    if (i == r) return false;
    while (i < line.size() && Blank(line[i])) ++i;
    // Anything else (a third field, other whitespace, signs, a bare '\r'): the Python reader decides.
    if (i != line.size() || rank >= kMaxTokenId || !Base64(b64, &raw, &raw_size) || raw_size == 0) return false;
    // The token's characters, written straight into the vocab's arena (a
    // line of n base64 characters gives at most 2 * 3n / 4 of them, within
    // the bound: the line is in data).
    const size_t at = used;
    char* w = vocab.arena.data() + at;
    for (size_t k = 0; k < raw_size; ++k) {
      const unsigned char c = static_cast<unsigned char>(raw[k]);
      w[0] = table.chars[c][0];
      w[1] = table.chars[c][1];
      w += table.size[c];
    }
    const size_t size = static_cast<size_t>(w - (vocab.arena.data() + at));
    used = at + size;
    if (size > 0xFFFF) return false;
    if (raw_size == 1) single[static_cast<unsigned char>(raw[0])] = true;
    vocab.entries.push_back({static_cast<uint32_t>(at), static_cast<uint32_t>(size), static_cast<uint32_t>(rank)});
  }
  vocab.arena.resize(used);
  for (bool present : single) {
    if (!present) return false;  // byte-level BPE needs all 256 bytes
  }
  if (vocab.entries.empty() || !vocab.Finish(/*index=*/false)) return false;  // a token or rank twice
  // _bpe() with mtok_rank_merges and ignore_merges: the full code, no merges.
  Sink w;
  w.u8(code::kBpeFull);
  w.u32(static_cast<uint32_t>(vocab.entries.size()));
  w.u8(0);  // byte_fallback
  w.u8(0);  // byte_level
  w.u32(0);  // merges
  w.u8(code::kBpeIgnoreMerges | code::kBpeRankMerges);
  w.u32(0);  // unk id
  w.str("");
  w.str("");
  if (!WriteDictEntries(vocab, &w)) return false;
  *section = std::move(w.out);
  *tokens = static_cast<uint32_t>(vocab.entries.size());
  return true;
}

}  // namespace mtok::convert
