#include "fast_paths/bert_code_points.h"

#include <cstring>

#include "common/utf8.h"
#include "common/unicode_norm.h"
#include "normalizers/bert_chars.h"

namespace mtok {

BertCodePoints::BertCodePoints(BertOptions opt)
    : opt_(opt), pages_(new std::atomic<const Entry*>[kPages]) {
  for (size_t i = 0; i < kPages; ++i) pages_[i].store(nullptr, std::memory_order_relaxed);
}

BertCodePoints::~BertCodePoints() {
  for (size_t i = 0; i < kPages; ++i) delete[] pages_[i].load(std::memory_order_relaxed);
}

bool BertCodePoints::IsSpace(char32_t c) { return unicode::is_white_space(c); }
bool BertCodePoints::IsPunctuation(char32_t c) { return unicode::IsBertPunctuation(c); }

namespace {

// The BertNormalizer's first two steps on one code point.
void CleanAndPad(const BertOptions& o, char32_t cp, std::u32string* out) {
  out->clear();
  if (o.clean_text) {
    if (bert::IsCleaned(cp)) return;
    if (bert::IsWhitespace(cp)) cp = ' ';
  }
  if (o.handle_chinese_chars && bert::IsChineseChar(cp)) out->append({U' ', cp, U' '});
  else out->push_back(cp);
}

// NFD of a few code points: each one's full canonical decomposition, then
// the marks of every run of nonzero classes in class order (stable).
void Nfd(const std::u32string& in, std::u32string* out) {
  out->clear();
  for (char32_t c : in) unicode::decompose_canonical(c, out);
  for (size_t i = 1; i < out->size(); ++i) {
    const uint8_t ci = unicode::combining_class((*out)[i]);
    if (ci == 0) continue;
    for (size_t j = i; j > 0; --j) {
      const uint8_t cj = unicode::combining_class((*out)[j - 1]);
      if (cj == 0 || cj <= ci) break;
      std::swap((*out)[j - 1], (*out)[j]);
    }
  }
}

}  // namespace

void BertCodePoints::Steps(char32_t cp, std::u32string* out, bool* leads_mark, bool* reorder) const {
  thread_local std::u32string chars, nfd;
  out->clear();
  *leads_mark = *reorder = false;
  if (!opt_.normalizes) {
    out->push_back(cp);
    return;
  }
  CleanAndPad(opt_, cp, &chars);
  if (opt_.strip_accents) {
    Nfd(chars, &nfd);
    // A code point that clean_text drops lets the marks around it meet.
    *leads_mark = nfd.empty() || unicode::combining_class(nfd[0]) != 0;
    chars.clear();
    for (char32_t c : nfd) {
      if (unicode::IsBertMn(c)) continue;
      chars.push_back(c);
      *reorder = *reorder || unicode::combining_class(c) != 0;
    }
  }
  if (!opt_.lowercase) {
    *out = chars;
    return;
  }
  for (char32_t c : chars) {
    if (c < 0x80) out->push_back(c >= 'A' && c <= 'Z' ? c + 32 : c);
    else unicode::to_lower(c, out);
  }
}

void BertCodePoints::Normalized(char32_t cp, std::u32string* out) const {
  bool leads_mark, reorder;
  Steps(cp, out, &leads_mark, &reorder);
}

// The code points that fill most pages, without the general steps: CJK
// ideographs (not the compatibility ones, which decompose) and Hangul
// syllables (NFD splits them into jamo). No stage changes their class, and
// only accent stripping changes their text. Returns false for others.
bool BertCodePoints::FillQuick(char32_t cp, Entry* e) const {
  const bool ideograph = bert::IsChineseChar(cp) && !(cp >= 0xF900 && cp <= 0xFAFF) &&
                         !(cp >= 0x2F800 && cp <= 0x2FA1F);
  const bool hangul = cp >= 0xAC00 && cp <= 0xD7A3;
  if (!ideograph && !hangul) return false;
  std::string bytes;
  if (hangul && opt_.normalizes && opt_.strip_accents) {
    const char32_t s = cp - 0xAC00;
    utf8::append(bytes, 0x1100 + s / 588);
    utf8::append(bytes, 0x1161 + s % 588 / 28);
    if (s % 28 != 0) utf8::append(bytes, 0x11A7 + s % 28);
  } else {
    utf8::append(bytes, cp);
  }
  e->kind = ideograph && opt_.normalizes && opt_.handle_chinese_chars ? kIsolate : kAppend;
  e->len = static_cast<uint8_t>(bytes.size());
  std::memcpy(e->out, bytes.data(), bytes.size());
  return true;
}

void BertCodePoints::Fill(char32_t cp, Entry* e) const {
  std::memset(e, 0, sizeof(*e));
  if (FillQuick(cp, e)) return;
  thread_local std::u32string out;
  bool reorder;
  Steps(cp, &out, &e->leads_mark, &reorder);
  if (reorder) {
    e->kind = kReorder;
    return;
  }
  size_t spaces = 0, puncts = 0;
  for (char32_t c : out) {
    spaces += IsSpace(c);
    puncts += !IsSpace(c) && IsPunctuation(c);
  }
  std::string bytes;
  for (char32_t c : out) utf8::append(bytes, c);
  if (spaces == 0 && puncts == 0) {
    e->kind = kAppend;
  } else if (spaces == out.size()) {
    e->kind = kBreak;
  } else if (out.size() - spaces == 1 &&
             (puncts == 1 || (spaces == 2 && IsSpace(out.front()) && IsSpace(out.back())))) {
    // "P", " P ", " c ": the character alone (it is neither first nor last
    // when it is padded).
    e->kind = kIsolate;
    bytes.clear();
    for (char32_t c : out) {
      if (!IsSpace(c)) utf8::append(bytes, c);
    }
  } else {
    e->kind = kMixed;
  }
  if (bytes.size() > sizeof(e->out)) {
    e->kind = kLong;
    return;
  }
  e->len = static_cast<uint8_t>(bytes.size());
  std::memcpy(e->out, bytes.data(), bytes.size());
}

const BertCodePoints::Entry* BertCodePoints::MakePage(size_t page) const {
  auto* entries = new Entry[256];
  for (char32_t k = 0; k < 256; ++k) {
    const char32_t cp = static_cast<char32_t>(page << 8) | k;
    if (cp >= 0xD800 && cp <= 0xDFFF) {  // never decoded from valid UTF-8
      std::memset(&entries[k], 0, sizeof(Entry));
      entries[k].kind = kLong;
      continue;
    }
    Fill(cp, &entries[k]);
  }
  const Entry* expected = nullptr;
  if (pages_[page].compare_exchange_strong(expected, entries, std::memory_order_acq_rel)) return entries;
  delete[] entries;  // another thread made it first
  return expected;
}

const BertCodePoints::Entry& BertCodePoints::Uncached(char32_t cp) const {
  thread_local Entry e;
  Fill(cp, &e);
  return e;
}

}  // namespace mtok
