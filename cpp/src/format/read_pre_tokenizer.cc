#include "format/codes.h"
#include "format/loaded_file.h"

namespace mtok {

Status ReadPreTokenizer(ByteReader& r, int depth, PreTokenizerPtr* out, std::string* type) {
  namespace c = codes::pre;
  if (depth > codes::kMaxNesting) return r.Error("pre-tokenizer Sequence nested too deeply");
  size_t at = r.pos();
  uint8_t t;
  MTOK_RETURN_IF_ERROR(r.U8(&t));
  switch (t) {
    case c::kNone:
      *type = "None";
      out->reset();
      return Status::Ok();
    case c::kByteLevel: {
      bool use_regex;
      MTOK_RETURN_IF_ERROR(r.Bool(&use_regex));
      *type = "ByteLevel";
      *out = MakeByteLevelPreTokenizer(false, use_regex);
      return Status::Ok();
    }
    case c::kByteLevelFull: {
      bool add_prefix_space, use_regex, trim_offsets;
      MTOK_RETURN_IF_ERROR(r.Bool(&add_prefix_space));
      MTOK_RETURN_IF_ERROR(r.Bool(&use_regex));
      MTOK_RETURN_IF_ERROR(r.Bool(&trim_offsets));
      *type = "ByteLevel";
      *out = MakeByteLevelPreTokenizer(add_prefix_space, use_regex);
      return Status::Ok();
    }
    case c::kDigits: {
      bool individual;
      MTOK_RETURN_IF_ERROR(r.Bool(&individual));
      *type = "Digits";
      *out = MakeDigitsPreTokenizer(individual);
      return Status::Ok();
    }
    case c::kSplit:
    case c::kSplitFull: {
      bool is_regex = true, invert;
      uint8_t behavior;
      std::string_view pattern;
      if (t == c::kSplitFull) MTOK_RETURN_IF_ERROR(r.Bool(&is_regex));
      size_t pat_at = r.pos();
      MTOK_RETURN_IF_ERROR(ReadUtf8(r, &pattern, "Split pattern"));
      if (t == c::kSplit) {
        MTOK_RETURN_IF_ERROR(r.Bool(&invert));
        size_t b_at = r.pos();
        MTOK_RETURN_IF_ERROR(r.U8(&behavior));
        // The seed's codes: 0 Isolated, 1 Removed, 2 MergedWithPrevious.
        static const uint8_t kSeed[] = {codes::behavior::kIsolated, codes::behavior::kRemoved,
                                        codes::behavior::kMergedWithPrevious};
        if (behavior > 2) return r.ErrorAt(b_at, "unknown Split behavior " + std::to_string(behavior));
        behavior = kSeed[behavior];
      } else {
        size_t b_at = r.pos();
        MTOK_RETURN_IF_ERROR(r.U8(&behavior));
        if (behavior > codes::behavior::kContiguous)
          return r.ErrorAt(b_at, "unknown Split behavior " + std::to_string(behavior));
        MTOK_RETURN_IF_ERROR(r.Bool(&invert));
      }
      SplitPattern sp;
      if (is_regex) {
        MTOK_RETURN_IF_ERROR(CompileFileRegex(r, pat_at, pattern, &sp.regex));
      } else {
        sp.literal = std::string(pattern);
      }
      *type = "Split";
      *out = MakeSplitPreTokenizer(std::move(sp), static_cast<SplitBehavior>(behavior), invert);
      return Status::Ok();
    }
    case c::kSequence: {
      uint32_t n;
      MTOK_RETURN_IF_ERROR(r.U32(&n));
      MTOK_RETURN_IF_ERROR(r.CheckArray(n, 1));
      std::vector<PreTokenizerPtr> parts;
      std::string names;
      for (uint32_t i = 0; i < n; ++i) {
        PreTokenizerPtr p;
        std::string sub;
        MTOK_RETURN_IF_ERROR(ReadPreTokenizer(r, depth + 1, &p, &sub));
        names += (i ? "," : "") + sub;
        if (p) parts.push_back(std::move(p));
      }
      *type = "Sequence[" + names + "]";
      *out = MakeSequencePreTokenizer(std::move(parts));
      return Status::Ok();
    }
    default:
      return r.ErrorAt(at, "unknown pre-tokenizer type " + std::to_string(t));
  }
}

}  // namespace mtok
