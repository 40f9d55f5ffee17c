#include "common/utf8.h"
#include "io/codes.h"
#include "format/section_readers.h"

namespace mtok {
namespace {

// A str holding exactly one character.
Status ReadChar(ByteReader& r, const char* field, char32_t* out) {
  size_t at = r.pos();
  std::string_view s;
  MTOK_RETURN_IF_ERROR(ReadUtf8(r, &s, field));
  if (utf8::count_chars(s) != 1) return r.ErrorAt(at, std::string(field) + " must be one character");
  int len;
  *out = utf8::decode(s, 0, &len);
  return Status::Ok();
}

}  // namespace

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
      uint8_t kind = codes::pattern::kOniguruma, behavior;
      bool invert;
      std::string_view pattern;
      if (t == c::kSplitFull) {
        size_t kind_at = r.pos();
        MTOK_RETURN_IF_ERROR(r.U8(&kind));
        if (kind > codes::pattern::kRust)
          return r.ErrorAt(kind_at, "unknown Split pattern kind " + std::to_string(kind));
      }
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
      if (kind == codes::pattern::kLiteral) {
        sp.literal = std::string(pattern);
      } else {
        RegexDialect d = kind == codes::pattern::kRust ? RegexDialect::kRust : RegexDialect::kOniguruma;
        // A known pattern runs on its scanner: compiling the regex would
        // be most of the load time, for nothing.
        sp.scanner = Scanner::ForPattern(pattern, d);
        if (!sp.scanner) MTOK_RETURN_IF_ERROR(CompileFileRegex(r, pat_at, pattern, d, &sp.regex));
      }
      *type = "Split";
      *out = MakeSplitPreTokenizer(std::move(sp), static_cast<SplitBehavior>(behavior), invert);
      return Status::Ok();
    }
    case c::kSequence: {
      std::vector<PreTokenizerPtr> parts;
      MTOK_RETURN_IF_ERROR(ReadSequenceParts(r, depth, ReadPreTokenizer, &parts, type));
      *out = MakeSequencePreTokenizer(std::move(parts));
      return Status::Ok();
    }
    case c::kMetaspace:
    case c::kMetaspaceFull: {
      char32_t replacement;
      MTOK_RETURN_IF_ERROR(ReadChar(r, "Metaspace replacement", &replacement));
      PrependScheme scheme;
      bool split = true;
      if (t == c::kMetaspace) {
        bool add_prefix_space;
        MTOK_RETURN_IF_ERROR(r.Bool(&add_prefix_space));
        scheme = add_prefix_space ? PrependScheme::kAlways : PrependScheme::kNever;
      } else {
        size_t s_at = r.pos();
        uint8_t v;
        MTOK_RETURN_IF_ERROR(r.U8(&v));
        if (v > 2) return r.ErrorAt(s_at, "unknown Metaspace prepend_scheme " + std::to_string(v));
        scheme = static_cast<PrependScheme>(v);
        MTOK_RETURN_IF_ERROR(r.Bool(&split));
      }
      *type = "Metaspace";
      *out = MakeMetaspacePreTokenizer(replacement, scheme, split);
      return Status::Ok();
    }
    case c::kWhitespaceSplit:
      *type = "WhitespaceSplit";
      *out = MakeWhitespaceSplitPreTokenizer();
      return Status::Ok();
    case c::kWhitespace: {
      std::unique_ptr<Regex> re;
      // HF compiles this one with the Rust regex crate, not Oniguruma (\w differs).
      MTOK_RETURN_IF_ERROR(CompileFileRegex(r, at, kWhitespacePattern, RegexDialect::kRust, &re));
      *type = "Whitespace";
      *out = MakeWhitespacePreTokenizer(std::move(re));
      return Status::Ok();
    }
    case c::kBert:
      *type = "BertPreTokenizer";
      *out = MakeBertPreTokenizer();
      return Status::Ok();
    case c::kPunctuation: {
      size_t b_at = r.pos();
      uint8_t behavior;
      MTOK_RETURN_IF_ERROR(r.U8(&behavior));
      if (behavior > codes::behavior::kContiguous)
        return r.ErrorAt(b_at, "unknown Punctuation behavior " + std::to_string(behavior));
      *type = "Punctuation";
      *out = MakePunctuationPreTokenizer(static_cast<SplitBehavior>(behavior));
      return Status::Ok();
    }
    case c::kCharDelimiter: {
      size_t d_at = r.pos();
      uint32_t cp;
      MTOK_RETURN_IF_ERROR(r.U32(&cp));
      if (cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000))
        return r.ErrorAt(d_at, "CharDelimiterSplit delimiter is not a Unicode scalar value");
      *type = "CharDelimiterSplit";
      *out = MakeCharDelimiterPreTokenizer(cp);
      return Status::Ok();
    }
    default:
      return r.ErrorAt(at, "unknown pre-tokenizer type " + std::to_string(t));
  }
}

}  // namespace mtok
