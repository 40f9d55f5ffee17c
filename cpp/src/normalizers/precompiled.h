// HF's Precompiled normalizer. In a header so that a fused ids route can
// stream its output (Stream) without building the normalized string.
#pragma once
#include <atomic>
#include <memory>
#include <string_view>

#include "common/grapheme.h"
#include "common/utf8.h"
#include "normalizers/charsmap.h"
#include "pipeline.h"

namespace mtok {

class PrecompiledNormalizer : public Normalizer {
 public:
  explicit PrecompiledNormalizer(Charsmap map);
  void Normalize(Piece* p) const override;
  void Describe(std::vector<NormalizerStage>* out) const override;

  // Calls out(chunk) for consecutive chunks of the normalized text: runs
  // of unchanged input and rule replacements, each made of whole
  // characters. Their concatenation is what Normalize produces.
  template <typename Out>
  void Stream(std::string_view text, Out out) const {
    if (map_.empty()) {
      if (!text.empty()) out(text);
      return;
    }
    size_t copied = 0;
    Scan(text, [&](size_t at, size_t len, std::string_view rep) {
      if (at > copied) out(text.substr(copied, at - copied));
      if (!rep.empty()) out(rep);
      copied = at + len;
    });
    if (copied < text.size()) out(text.substr(copied));
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
      // A run of ASCII without rules (and no CR): each byte is a cluster of
      // its own, except that the last one joins a non-ASCII successor.
      size_t e = at;
      while (e < n && ascii_plain_[static_cast<uint8_t>(text[e])]) ++e;
      if (e > at) {
        at = e < n && static_cast<uint8_t>(text[e]) >= 0x80 ? e - 1 : e;
        if (at == e) continue;
      }
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

  void Rewrite(Piece* p) const;
  void RewriteTracked(Piece* p) const;

  // Whether a BMP character starts plain clusters and has no rule of its
  // own; computed on first sight and kept (relaxed atomics: any thread may
  // fill an entry, all compute the same value).
  bool LoneWithoutRule(char32_t cp) const {
    if (cp >= 0x10000) return false;
    uint8_t v = lone_[cp].load(std::memory_order_relaxed);
    if (v == 0) v = LearnLone(cp);
    return v == 1;
  }
  uint8_t LearnLone(char32_t cp) const;
  bool Shortest(std::string_view s, std::string_view* rep) const;

  Charsmap map_;
  bool ascii_plain_[0x100] = {};            // ASCII, no rule, not CR
  bool ascii_has_[0x80] = {};              // whether a lone ASCII byte has a rule
  std::string_view ascii_rule_[0x80] = {};  // and its replacement
  // Per BMP character: 0 not known yet, 1 LoneWithoutRule, 2 not.
  std::unique_ptr<std::atomic<uint8_t>[]> lone_{new std::atomic<uint8_t>[0x10000]()};
};

}  // namespace mtok
