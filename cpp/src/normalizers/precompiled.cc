#include <atomic>
#include <memory>

#include "common/grapheme.h"
#include "common/utf8.h"
#include "normalizers/normalizers.h"
#include "normalizers/transform.h"

namespace mtok {
namespace {

// HF's Precompiled: walks extended grapheme clusters; a cluster shorter than
// 6 bytes is replaced whole by the rule of its shortest matching prefix;
// otherwise each character is replaced by its own rule, if any.
class PrecompiledNormalizer : public Normalizer {
 public:
  explicit PrecompiledNormalizer(Charsmap map) : map_(map) {
    for (int c = 1; c < 0x80; ++c) {
      const char ch = static_cast<char>(c);
      ascii_has_[c] = Shortest(std::string_view(&ch, 1), &ascii_rule_[c]);
    }
  }

  void Normalize(Piece* p) const override {
    if (map_.empty() || p->text.empty()) return;
    if (p->align.empty()) Rewrite(p);
    else RewriteTracked(p);
  }

 private:
  // Calls rule(at, len, replacement) for each cluster or character that a
  // rule replaces, left to right: HF walks extended grapheme clusters; a
  // cluster shorter than 6 bytes is replaced whole by the rule of its
  // shortest matching prefix; otherwise each character by its own rule.
  template <typename Rule>
  void Scan(std::string_view text, Rule rule) const {
    const size_t n = text.size();
    for (size_t at = 0; at < n;) {
      const uint8_t c = static_cast<uint8_t>(text[at]);
      // An ASCII character followed by ASCII (other than CR LF) or the end
      // is a cluster of its own.
      if (c < 0x80 && (at + 1 == n || (static_cast<uint8_t>(text[at + 1]) < 0x80 &&
                                       !(c == '\r' && text[at + 1] == '\n')))) {
        if (ascii_has_[c]) rule(at, 1, ascii_rule_[c]);
        ++at;
        continue;
      }
      if (c >= 0x80) {
        // A plain character without a rule, not joined by the next one.
        int len;
        const char32_t cp = utf8::decode(text, at, &len);
        const size_t next = at + len;
        if (LoneWithoutRule(cp)) {
          if (next == n || static_cast<uint8_t>(text[next]) < 0x80) {
            at = next;
            continue;
          }
          int next_len;
          if (!unicode::JoinsPrevious(utf8::decode(text, next, &next_len))) {
            at = next;
            continue;
          }
        }
      }
      const size_t glen = unicode::GraphemeLength(text, at);
      std::string_view rep;
      if (glen < 6 && Shortest(text.substr(at, glen), &rep)) {
        rule(at, glen, rep);
      } else {
        for (size_t ch = at; ch < at + glen;) {
          const size_t clen = std::min<size_t>(utf8::seq_len(static_cast<uint8_t>(text[ch])), at + glen - ch);
          if (Shortest(text.substr(ch, clen), &rep)) rule(ch, clen, rep);
          ch += clen;
        }
      }
      at += glen;
    }
  }

  // Without offsets: unchanged runs are copied whole.
  void Rewrite(Piece* p) const {
    thread_local std::string out;
    out.clear();
    const std::string_view text = p->text;
    size_t copied = 0;
    bool changed = false;
    Scan(text, [&](size_t at, size_t len, std::string_view rep) {
      out.append(text.data() + copied, at - copied);
      out.append(rep);
      copied = at + len;
      changed = true;
    });
    if (!changed) return;
    out.append(text.data() + copied, text.size() - copied);
    p->text.swap(out);
  }

  // With offsets: HF lists the output with change codes and lets
  // transform() align it (a rule with an empty replacement charges the
  // removal to the previous output character); the same is done here.
  void RewriteTracked(Piece* p) const {
    std::vector<CharChange> dest;
    dest.reserve(p->text.size());
    const std::string_view text = p->text;
    size_t kept = 0;
    bool changed = false;
    auto keep = [&](size_t e) {
      for (size_t i = kept; i < e;) {
        int len;
        dest.push_back({utf8::decode(text, i, &len), 0});
        i += len;
      }
    };
    Scan(text, [&](size_t at, size_t len, std::string_view rep) {
      keep(at);
      kept = at + len;
      changed = true;
      const int old_count = static_cast<int>(utf8::count_chars(text.substr(at, len)));
      int new_count = 0;
      for (size_t i = 0; i < rep.size(); ++new_count) {
        int clen;
        dest.push_back({utf8::decode(rep, i, &clen), 0});
        i += clen;
      }
      const int diff = new_count - old_count;
      if (diff > 0) {
        for (int k = 0; k < diff; ++k) dest[dest.size() - 1 - k].change = 1;
      } else if (diff < 0 && !dest.empty()) {
        dest.back().change += diff;
      }
    });
    if (!changed) return;
    keep(text.size());
    TransformPiece(p, dest, 0);
  }

  // Whether a BMP character starts plain clusters and has no rule of its
  // own; computed on first sight and kept (relaxed atomics: any thread may
  // fill an entry, all compute the same value).
  bool LoneWithoutRule(char32_t cp) const {
    if (cp >= 0x10000) return false;
    uint8_t v = lone_[cp].load(std::memory_order_relaxed);
    if (v == 0) {
      std::string s;
      utf8::append(s, cp);
      std::string_view rep;
      v = unicode::IsPlainClusterStart(cp) && !Shortest(s, &rep) ? 1 : 2;
      lone_[cp].store(v, std::memory_order_relaxed);
    }
    return v == 1;
  }

  bool Shortest(std::string_view s, std::string_view* rep) const {
    bool found = false;
    map_.ForEachPrefix(s, [&](size_t, std::string_view r) {
      *rep = r;
      found = true;
      return false;
    });
    return found;
  }

  Charsmap map_;
  bool ascii_has_[0x80] = {};              // whether a lone ASCII byte has a rule
  std::string_view ascii_rule_[0x80] = {};  // and its replacement
  // Per BMP character: 0 not known yet, 1 LoneWithoutRule, 2 not.
  std::unique_ptr<std::atomic<uint8_t>[]> lone_{new std::atomic<uint8_t>[0x10000]()};
};

}  // namespace

NormalizerPtr MakePrecompiledNormalizer(Charsmap map) {
  return std::make_unique<PrecompiledNormalizer>(map);
}

}  // namespace mtok
