// The backtracking matcher. Backtrack points live in a heap vector (never
// the C++ stack). Kinds of Frame:
//   kBranch      resume at (pc, pos)
//   kGreedyRest  a greedy kRepeatSet gives back one character: resume at pc
//                with pos one character earlier, while pos > aux (its minimum)
//   kLazyMore    a lazy kRepeatSet (at pc) takes one more character; aux
//                counts the characters taken so far
//   kRestoreSlot slots[pc] = aux
//   kLookMark    bottom of a lookahead body; popping it means the body
//                failed: a negative lookahead then succeeds at (pc, pos)
//   kAtomicMark  bottom of an atomic body
// kLookEnd / kAtomicEnd cut the stack back to their mark, so a body is never
// re-entered once it matched.
#include "common/regex_program.h"
#include "common/utf8.h"

namespace mtok::regex_internal {

namespace {

enum FrameKind : uint32_t { kBranch, kGreedyRest, kLazyMore, kRestoreSlot, kLookMark, kAtomicMark };

inline char32_t DecodeAt(std::string_view text, size_t pos, int* len) {
  unsigned char b = static_cast<unsigned char>(text[pos]);
  if (b < 0x80) {
    *len = 1;
    return b;
  }
  return utf8::decode(text, pos, len);
}

}  // namespace

Matcher::Matcher(const Program& program, std::string_view text)
    : prog_(program), text_(text), slots_(program.num_slots) {}

bool Matcher::Check(AssertKind kind, size_t pos) const {
  switch (kind) {
    case AssertKind::kTextBegin:
      return pos == 0;
    case AssertKind::kTextEnd:
      return pos == text_.size();
    case AssertKind::kLineBegin:
      return pos == 0 || text_[pos - 1] == '\n';
    case AssertKind::kLineBeginNotAtEnd:
      return pos == 0 || (pos < text_.size() && text_[pos - 1] == '\n');
    case AssertKind::kLineEnd:
      return pos == text_.size() || text_[pos] == '\n';
  }
  return false;
}

bool Matcher::WithinBudget(size_t start, size_t pos) {
  if (pos > furthest_) furthest_ = pos;
  if (++retries_ <= retry_limit_) return true;
  retry_limit_ = kRetryBase + kRetryPerByte * (furthest_ - start);
  return retries_ <= retry_limit_;
}

MatchResult Matcher::MatchAt(size_t start, size_t* end) {
  const std::vector<Inst>& insts = prog_.insts;
  const size_t n = text_.size();
  stack_.clear();
  retries_ = 0;
  retry_limit_ = kRetryBase;
  furthest_ = start;
  uint32_t pc = 0;
  size_t pos = start;
  int len = 0;
  for (;;) {
    const Inst& in = insts[pc];
    switch (in.op) {
      case Op::kChar:
        if (pos < n && DecodeAt(text_, pos, &len) == in.arg) {
          pos += len;
          ++pc;
          continue;
        }
        break;
      case Op::kSet:
        if (pos < n && prog_.tables[in.arg].Contains(DecodeAt(text_, pos, &len))) {
          pos += len;
          ++pc;
          continue;
        }
        break;
      case Op::kRepeatSet: {
        const CharTable& table = prog_.tables[in.arg];
        uint32_t limit = in.mode == RepeatMode::kLazy ? in.min : in.max;
        uint32_t count = 0;
        size_t p = pos, min_pos = pos;
        while (count < limit && p < n && table.Contains(DecodeAt(text_, p, &len))) {
          p += len;
          if (++count == in.min) min_pos = p;
        }
        if (count < in.min) break;
        if (in.mode == RepeatMode::kGreedy && p > min_pos) {
          stack_.push_back({kGreedyRest, pc + 1, p, min_pos});
        } else if (in.mode == RepeatMode::kLazy && in.max > in.min) {
          stack_.push_back({kLazyMore, pc, p, count});
        }
        pos = p;
        ++pc;
        continue;
      }
      case Op::kSplit:
        stack_.push_back({kBranch, in.alt, pos, 0});
        pc = in.arg;
        continue;
      case Op::kJmp:
        pc = in.arg;
        continue;
      case Op::kAssert:
        if (Check(in.assert_kind, pos)) {
          ++pc;
          continue;
        }
        break;
      case Op::kLookBegin:
      case Op::kAtomicBegin:
        stack_.push_back({kRestoreSlot, in.arg, 0, slots_[in.arg]});
        slots_[in.arg] = stack_.size();
        if (in.op == Op::kLookBegin) {
          stack_.push_back({kLookMark, in.alt, pos, in.negate ? 1u : 0u});
        } else {
          stack_.push_back({kAtomicMark, 0, 0, 0});
        }
        ++pc;
        continue;
      case Op::kLookEnd: {
        Frame mark = stack_[slots_[in.arg]];
        stack_.resize(slots_[in.arg]);
        if (in.negate) break;  // the body matched: (?!..) fails
        pos = mark.pos;
        pc = mark.pc;
        continue;
      }
      case Op::kAtomicEnd:
        stack_.resize(slots_[in.arg]);
        ++pc;
        continue;
      case Op::kMatch:
        *end = pos;
        return MatchResult::kMatch;
    }
    // Failure: resume at the most recent backtrack point.
    if (!WithinBudget(start, pos)) return MatchResult::kOverBudget;
    for (;;) {
      if (stack_.empty()) return MatchResult::kNoMatch;
      Frame& f = stack_.back();
      if (f.kind == kBranch) {
        pc = f.pc;
        pos = f.pos;
        stack_.pop_back();
        break;
      }
      if (f.kind == kGreedyRest) {
        size_t p = f.pos - 1;
        while (p > f.aux && (static_cast<unsigned char>(text_[p]) & 0xC0) == 0x80) --p;
        pc = f.pc;
        pos = p;
        if (p > f.aux) {
          f.pos = p;
        } else {
          stack_.pop_back();
        }
        break;
      }
      if (f.kind == kLazyMore) {
        const Inst& rep = insts[f.pc];
        if (f.pos < n && prog_.tables[rep.arg].Contains(DecodeAt(text_, f.pos, &len))) {
          f.pos += len;
          pc = f.pc + 1;
          pos = f.pos;
          if (++f.aux >= rep.max) stack_.pop_back();
          break;
        }
        stack_.pop_back();
        continue;
      }
      if (f.kind == kRestoreSlot) {
        slots_[f.pc] = f.aux;
      } else if (f.kind == kLookMark && f.aux) {
        pc = f.pc;  // the negative lookahead's body failed: go on after it
        pos = f.pos;
        stack_.pop_back();
        break;
      }
      stack_.pop_back();
    }
  }
}

}  // namespace mtok::regex_internal
