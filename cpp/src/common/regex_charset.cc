#include "common/regex_charset.h"

#include <algorithm>
#include <map>

namespace mtok::regex_internal {

using unicode::CodePointRange;

namespace {

constexpr char32_t kMaxCp = 0x10FFFF;

// First byte of cp's UTF-8 form; non-decreasing in cp.
unsigned lead_byte(char32_t cp) {
  if (cp < 0x80) return cp;
  if (cp < 0x800) return 0xC0 | (cp >> 6);
  if (cp < 0x10000) return 0xE0 | (cp >> 12);
  return 0xF0 | (cp >> 18);
}

}  // namespace

void CharSet::Add(char32_t first, char32_t last) {
  ranges_.push_back({first, last});
  dirty_ = true;
}

void CharSet::Add(const CharSet& other) {
  for (const CodePointRange& r : other.Ranges()) Add(r.first, r.last);
}

void CharSet::AddCategories(uint32_t mask) {
  size_t n = 0;
  const unicode::CategoryRun* runs = unicode::category_runs(&n);
  for (size_t i = 0; i < n; ++i) {
    if (!((mask >> static_cast<unsigned>(runs[i].category)) & 1)) continue;
    char32_t end = i + 1 < n ? runs[i + 1].start : kMaxCp + 1;
    Add(runs[i].start, end - 1);
  }
}

void CharSet::AddWhiteSpace() {
  static const CharSet* white_space = [] {
    auto* set = new CharSet;
    for (char32_t cp = 0; cp <= 0x3000; ++cp) {  // White_Space ends at U+3000
      if (unicode::is_white_space(cp)) set->Add(cp);
    }
    set->Ranges();  // normalize now: threads share it read-only afterwards
    return set;
  }();
  Add(*white_space);
}

void CharSet::AddWord() {
  static const CharSet* word = [] {
    using unicode::Category;
    auto* set = new CharSet;
    uint32_t mask = 0;
    for (Category c : {Category::Lu, Category::Ll, Category::Lt, Category::Lm, Category::Lo,
                       Category::Mn, Category::Mc, Category::Me, Category::Nd, Category::Pc}) {
      mask |= 1u << static_cast<unsigned>(c);
    }
    set->AddCategories(mask);
    // The rest of Alphabetic (Nl, circled letters), among assigned code
    // points outside those categories.
    size_t n = 0;
    const unicode::CategoryRun* runs = unicode::category_runs(&n);
    for (size_t i = 0; i < n; ++i) {
      Category c = runs[i].category;
      if (((mask >> static_cast<unsigned>(c)) & 1) || c == Category::Cn || c == Category::Co ||
          c == Category::Cs) {
        continue;
      }
      char32_t end = i + 1 < n ? runs[i + 1].start : kMaxCp + 1;
      for (char32_t cp = runs[i].start; cp < end; ++cp) {
        if (unicode::is_word(cp)) set->Add(cp);
      }
    }
    set->Ranges();  // normalize now: threads share it read-only afterwards
    return set;
  }();
  Add(*word);
}

const std::vector<CodePointRange>& CharSet::Ranges() const {
  if (!dirty_) return ranges_;
  std::sort(ranges_.begin(), ranges_.end(),
            [](const CodePointRange& a, const CodePointRange& b) { return a.first < b.first; });
  // Merge overlapping and adjacent ranges in place.
  size_t out = 0;
  for (size_t i = 0; i < ranges_.size(); ++i) {
    if (out > 0 && ranges_[i].first <= ranges_[out - 1].last + 1) {
      ranges_[out - 1].last = std::max(ranges_[out - 1].last, ranges_[i].last);
    } else {
      ranges_[out++] = ranges_[i];
    }
  }
  ranges_.resize(out);
  dirty_ = false;
  return ranges_;
}

void CharSet::Negate() {
  std::vector<CodePointRange> out;
  char32_t next = 0;
  for (const CodePointRange& r : Ranges()) {
    if (r.first > next) out.push_back({next, r.first - 1});
    next = r.last + 1;
  }
  if (next <= kMaxCp) out.push_back({next, kMaxCp});
  ranges_ = std::move(out);
  dirty_ = false;
}

bool CharSet::Contains(char32_t cp) const {
  const auto& rs = Ranges();
  auto it = std::upper_bound(rs.begin(), rs.end(), cp,
                             [](char32_t c, const CodePointRange& r) { return c < r.first; });
  return it != rs.begin() && cp <= std::prev(it)->last;
}

void CharSet::CloseCase() {
  size_t n = 0;
  const unicode::FoldPair* pairs = unicode::simple_fold_pairs(&n);
  std::vector<char32_t> targets;  // fold targets of orbits that meet the set
  for (size_t i = 0; i < n; ++i) {
    if (Contains(pairs[i].from) || Contains(pairs[i].to)) targets.push_back(pairs[i].to);
  }
  std::sort(targets.begin(), targets.end());
  for (size_t i = 0; i < n; ++i) {
    if (std::binary_search(targets.begin(), targets.end(), pairs[i].to)) {
      Add(pairs[i].from);
      Add(pairs[i].to);
    }
  }
}

bool CharSet::HasMultiCharFold() const {
  // Every code point with a multi-character folding lies in U+00DF..U+FB17.
  char32_t folded[3];
  for (const CodePointRange& r : Ranges()) {
    for (char32_t cp = std::max<char32_t>(r.first, 0xDF); cp <= std::min<char32_t>(r.last, 0xFB17);
         ++cp) {
      if (unicode::full_fold_multi(cp, folded)) return true;
    }
  }
  return false;
}

bool CharSet::operator==(const CharSet& other) const {
  const auto& a = Ranges();
  const auto& b = other.Ranges();
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](auto& x, auto& y) {
           return x.first == y.first && x.last == y.last;
         });
}

std::vector<char32_t> CaseOrbit(char32_t cp) {
  char32_t target = unicode::simple_fold(cp);
  std::vector<char32_t> orbit = {target};
  size_t n = 0;
  const unicode::FoldPair* pairs = unicode::simple_fold_pairs(&n);
  for (size_t i = 0; i < n; ++i) {
    if (pairs[i].to == target) orbit.push_back(pairs[i].from);
  }
  return orbit;
}

CharTable::CharTable(const CharSet& set) {
  constexpr size_t kBlocks = 0x110000 >> 8;
  const auto& rs = set.Ranges();
  index_.resize(kBlocks);
  // Blocks 0 and 1 are all-clear and all-set; most of the code space is one
  // or the other, so only blocks that a range boundary crosses are hashed.
  bits_.assign(8, 0);
  std::fill(bits_.begin() + 4, bits_.end(), ~uint64_t{0});
  std::map<std::array<uint64_t, 4>, uint16_t> seen;
  size_t r = 0;
  for (size_t b = 0; b < kBlocks; ++b) {
    char32_t lo = static_cast<char32_t>(b << 8), hi = lo + 255;
    while (r < rs.size() && rs[r].last < lo) ++r;
    if (r == rs.size() || rs[r].first > hi) {
      index_[b] = 0;
      continue;
    }
    if (rs[r].first <= lo && rs[r].last >= hi) {
      index_[b] = 1;
      continue;
    }
    std::array<uint64_t, 4> words = {0, 0, 0, 0};
    for (size_t k = r; k < rs.size() && rs[k].first <= hi; ++k) {
      char32_t a = std::max(rs[k].first, lo) - lo, z = std::min(rs[k].last, hi) - lo;
      while (a <= z) {  // whole words at a time
        char32_t end = std::min<char32_t>(z, a | 63), n = end - a + 1;
        uint64_t ones = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
        words[a >> 6] |= ones << (a & 63);
        a = end + 1;
      }
    }
    auto [it, inserted] = seen.emplace(words, static_cast<uint16_t>(bits_.size() / 4));
    if (inserted) bits_.insert(bits_.end(), words.begin(), words.end());
    index_[b] = it->second;
  }
  ascii_[0] = bits_[static_cast<size_t>(index_[0]) * 4];
  ascii_[1] = bits_[static_cast<size_t>(index_[0]) * 4 + 1];
  for (const CodePointRange& range : rs) {
    for (unsigned byte = lead_byte(range.first); byte <= lead_byte(range.last); ++byte) {
      if (byte >= 0x80 && byte < 0xC2) continue;  // continuation bytes lead nothing
      lead_[byte >> 6] |= uint64_t{1} << (byte & 63);
    }
  }
}

}  // namespace mtok::regex_internal
