// Ast -> Program. Repetitions of one character become a single kRepeatSet;
// other counted repetitions are unrolled (the program size is capped).
#include <deque>
#include <string>

#include "common/regex_program.h"
#include "common/utf8.h"

namespace mtok::regex_internal {

namespace {

constexpr size_t kMaxInsts = 200000;

class Compiler {
 public:
  Compiler(const Ast& ast, Program* prog) : ast_(ast), prog_(prog) {}

  Status Run() {
    table_of_set_.assign(ast_.sets.size(), UINT32_MAX);
    MTOK_RETURN_IF_ERROR(Emit(ast_.root));
    Append(Op::kMatch);
    uint64_t bytes[4] = {0, 0, 0, 0};
    if (!FirstBytes(ast_.root, bytes)) {
      prog_->has_first_bytes = true;
      std::copy(bytes, bytes + 4, prog_->first_bytes);
    }
    return Status::Ok();
  }

 private:
  uint32_t Pc() const { return static_cast<uint32_t>(prog_->insts.size()); }
  Inst& At(uint32_t pc) { return prog_->insts[pc]; }
  uint32_t Append(Op op) {
    Inst in;
    in.op = op;
    prog_->insts.push_back(in);
    return Pc() - 1;
  }

  uint32_t Table(const CharSet& set) {
    for (size_t i = 0; i < distinct_.size(); ++i) {
      if (*distinct_[i] == set) return static_cast<uint32_t>(i);
    }
    distinct_.push_back(&set);
    prog_->tables.emplace_back(set);
    return static_cast<uint32_t>(prog_->tables.size() - 1);
  }
  uint32_t TableOfNode(const Node& n) {
    if (n.kind == NodeKind::kSet) {
      if (table_of_set_[n.set] == UINT32_MAX) table_of_set_[n.set] = Table(ast_.sets[n.set]);
      return table_of_set_[n.set];
    }
    owned_.emplace_back();
    owned_.back().Add(n.cp);
    return Table(owned_.back());
  }

  Status Grew() const {
    if (prog_->insts.size() <= kMaxInsts) return Status::Ok();
    return UnsupportedError("regex: unsupported pattern size: over " + std::to_string(kMaxInsts) +
                            " instructions after expanding repetition counts");
  }

  Status Emit(uint32_t id) {
    const Node& n = ast_.nodes[id];
    switch (n.kind) {
      case NodeKind::kEmpty:
        break;
      case NodeKind::kChar:
        At(Append(Op::kChar)).arg = n.cp;
        break;
      case NodeKind::kSet:
        At(Append(Op::kSet)).arg = TableOfNode(n);
        break;
      case NodeKind::kAssert:
        At(Append(Op::kAssert)).assert_kind = n.assert_kind;
        break;
      case NodeKind::kConcat:
        for (uint32_t k : n.kids) MTOK_RETURN_IF_ERROR(Emit(k));
        break;
      case NodeKind::kAlt: {
        std::vector<uint32_t> jumps;
        for (size_t i = 0; i < n.kids.size(); ++i) {
          if (i + 1 == n.kids.size()) {
            MTOK_RETURN_IF_ERROR(Emit(n.kids[i]));
            break;
          }
          uint32_t split = Append(Op::kSplit);
          At(split).arg = split + 1;
          MTOK_RETURN_IF_ERROR(Emit(n.kids[i]));
          jumps.push_back(Append(Op::kJmp));
          At(split).alt = Pc();
        }
        for (uint32_t j : jumps) At(j).arg = Pc();
        break;
      }
      case NodeKind::kRepeat:
        return EmitRepeat(n);
      case NodeKind::kLook: {
        uint32_t slot = prog_->num_slots++;
        uint32_t begin = Append(Op::kLookBegin);
        At(begin).arg = slot;
        At(begin).negate = n.negate;
        MTOK_RETURN_IF_ERROR(Emit(n.kids[0]));
        uint32_t end = Append(Op::kLookEnd);
        At(end).arg = slot;
        At(end).negate = n.negate;
        At(begin).alt = Pc();
        break;
      }
      case NodeKind::kAtomic: {
        uint32_t slot = prog_->num_slots++;
        At(Append(Op::kAtomicBegin)).arg = slot;
        MTOK_RETURN_IF_ERROR(Emit(n.kids[0]));
        At(Append(Op::kAtomicEnd)).arg = slot;
        break;
      }
      case NodeKind::kCapture:
        return Emit(n.kids[0]);
    }
    return Grew();
  }

  Status EmitRepeat(const Node& n) {
    const Node& kid = ast_.nodes[n.kids[0]];
    if (kid.kind == NodeKind::kChar || kid.kind == NodeKind::kSet) {
      uint32_t pc = Append(Op::kRepeatSet);
      At(pc).arg = TableOfNode(kid);
      At(pc).min = n.min;
      At(pc).max = n.max;
      At(pc).mode = n.mode;
      return Status::Ok();
    }
    bool possessive = n.mode == RepeatMode::kPossessive;
    bool lazy = n.mode == RepeatMode::kLazy;
    uint32_t slot = 0;
    if (possessive) {
      slot = prog_->num_slots++;
      At(Append(Op::kAtomicBegin)).arg = slot;
    }
    for (uint32_t i = 0; i < n.min; ++i) MTOK_RETURN_IF_ERROR(Emit(n.kids[0]));
    std::vector<uint32_t> splits;
    if (n.max == kInfinite) {
      uint32_t split = Append(Op::kSplit);
      splits.push_back(split);
      MTOK_RETURN_IF_ERROR(Emit(n.kids[0]));
      At(Append(Op::kJmp)).arg = split;
    } else {
      for (uint32_t i = n.min; i < n.max; ++i) {
        splits.push_back(Append(Op::kSplit));
        MTOK_RETURN_IF_ERROR(Emit(n.kids[0]));
      }
    }
    uint32_t exit = Pc();
    for (uint32_t s : splits) {
      At(s).arg = lazy ? exit : s + 1;
      At(s).alt = lazy ? s + 1 : exit;
    }
    if (possessive) At(Append(Op::kAtomicEnd)).arg = slot;
    return Grew();
  }

  static void AddLead(char32_t cp, uint64_t* bytes) {
    std::string s;
    utf8::append(s, cp);
    unsigned char b = static_cast<unsigned char>(s[0]);
    bytes[b >> 6] |= uint64_t{1} << (b & 63);
  }

  // ORs into `bytes` the first bytes of non-empty matches; returns whether
  // the node can match empty (then what follows it may start a match too).
  bool FirstBytes(uint32_t id, uint64_t* bytes) {
    const Node& n = ast_.nodes[id];
    switch (n.kind) {
      case NodeKind::kChar:
        AddLead(n.cp, bytes);
        return false;
      case NodeKind::kSet: {
        const CharTable& t = prog_->tables[table_of_set_[n.set]];
        for (unsigned b = 0; b < 256; ++b) {
          if (t.MayStartWith(static_cast<unsigned char>(b))) bytes[b >> 6] |= uint64_t{1} << (b & 63);
        }
        return false;
      }
      case NodeKind::kConcat:
        for (uint32_t k : n.kids) {
          if (!FirstBytes(k, bytes)) return false;
        }
        return true;
      case NodeKind::kAlt: {
        bool nullable = false;
        for (uint32_t k : n.kids) nullable |= FirstBytes(k, bytes);
        return nullable;
      }
      case NodeKind::kRepeat:
        return FirstBytes(n.kids[0], bytes) || n.min == 0;
      case NodeKind::kAtomic:
      case NodeKind::kCapture:
        return FirstBytes(n.kids[0], bytes);
      default:
        return true;  // kEmpty, kAssert, kLook: consume nothing
    }
  }

  const Ast& ast_;
  Program* prog_;
  std::vector<uint32_t> table_of_set_;
  std::vector<const CharSet*> distinct_;
  std::deque<CharSet> owned_;  // single-character sets of kChar repeats
};

}  // namespace

Status CompileAst(const Ast& ast, Program* program) { return Compiler(ast, program).Run(); }

}  // namespace mtok::regex_internal
