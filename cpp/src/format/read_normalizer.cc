#include "io/codes.h"
#include "format/section_readers.h"
#include "common/utf8.h"

namespace mtok {
namespace {

Status ReadTable(ByteReader& r, std::vector<std::pair<char32_t, std::string_view>>* table) {
  uint32_t n;
  MTOK_RETURN_IF_ERROR(r.U32(&n));
  MTOK_RETURN_IF_ERROR(r.CheckArray(n, 6));
  table->reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    size_t at = r.pos();
    uint32_t cp;
    std::string_view s;
    MTOK_RETURN_IF_ERROR(r.U32(&cp));
    MTOK_RETURN_IF_ERROR(ReadUtf8(r, &s, "normalization table entry"));
    if (cp > 0x10FFFF) return r.ErrorAt(at, "code point " + std::to_string(cp) + " out of range");
    if (!table->empty() && table->back().first >= cp)
      return r.ErrorAt(at, "normalization table is not sorted by code point");
    table->emplace_back(cp, s);
  }
  return Status::Ok();
}

// [lstr blob]: empty means no rules.
Status ReadCharsmap(ByteReader& r, Charsmap* map) {
  size_t at = r.pos();
  std::string_view blob;
  MTOK_RETURN_IF_ERROR(r.LongStr(&blob));
  std::string error;
  if (!blob.empty() && !map->Parse(blob, &error)) return r.ErrorAt(at, error);
  return Status::Ok();
}

Status ReadSentencePiece(ByteReader& r, NormalizerPtr* out) {
  size_t at = r.pos();
  uint8_t flags;
  MTOK_RETURN_IF_ERROR(r.U8(&flags));
  if (flags & ~0x0F) return r.ErrorAt(at, "unknown SentencePiece normalizer flag bits");
  SpmNormalizerOptions opt;
  opt.add_dummy_prefix = flags & 1;
  opt.remove_extra_whitespaces = flags & 2;
  opt.escape_whitespaces = flags & 4;
  opt.treat_whitespace_as_suffix = flags & 8;
  MTOK_RETURN_IF_ERROR(ReadCharsmap(r, &opt.charsmap));
  MTOK_RETURN_IF_ERROR(ReadUtf8List(r, &opt.user_defined, "user-defined symbol"));
  *out = MakeSentencePieceNormalizer(std::move(opt));
  return Status::Ok();
}

}  // namespace

Status ReadNormalizer(ByteReader& r, int depth, NormalizerPtr* out, std::string* type) {
  namespace c = codes::norm;
  if (depth > codes::kMaxNesting) return r.Error("normalizer Sequence nested too deeply");
  size_t at = r.pos();
  uint8_t t;
  MTOK_RETURN_IF_ERROR(r.U8(&t));
  switch (t) {
    case c::kNone:
      *type = "None";
      out->reset();
      return Status::Ok();
    case c::kNfkc:
      *type = "NFKC";
      *out = MakeUnicodeFormNormalizer(unicode::NormForm::NFKC);
      return Status::Ok();
    case c::kUnicodeForm: {
      uint8_t form;
      MTOK_RETURN_IF_ERROR(r.U8(&form));
      static const char* kNames[] = {"NFC", "NFD", "NFKC", "NFKD"};
      if (form > 3) return r.ErrorAt(at + 1, "unknown Unicode form " + std::to_string(form));
      *type = kNames[form];
      *out = MakeUnicodeFormNormalizer(static_cast<unicode::NormForm>(form));
      return Status::Ok();
    }
    case c::kPrepend: {
      std::string_view s;
      MTOK_RETURN_IF_ERROR(ReadUtf8(r, &s, "Prepend string"));
      *type = "Prepend";
      *out = MakePrependNormalizer(std::string(s));
      return Status::Ok();
    }
    case c::kReplace:
    case c::kReplaceRegex: {
      std::string_view pattern, content;
      size_t pat_at = r.pos();
      MTOK_RETURN_IF_ERROR(ReadUtf8(r, &pattern, "Replace pattern"));
      MTOK_RETURN_IF_ERROR(ReadUtf8(r, &content, "Replace content"));
      *type = "Replace";
      if (t == c::kReplace) {
        *out = MakeReplaceNormalizer(std::string(pattern), std::string(content));
      } else {
        char c;
        size_t min;
        if (ParseRunPattern(pattern, &c, &min)) {
          *out = MakeRunReplaceNormalizer(c, min, std::string(content));
          return Status::Ok();
        }
        std::unique_ptr<Regex> re;
        MTOK_RETURN_IF_ERROR(CompileFileRegex(r, pat_at, pattern, RegexDialect::kOniguruma, &re));
        *out = MakeRegexReplaceNormalizer(std::move(re), std::string(content));
      }
      return Status::Ok();
    }
    case c::kSequence: {
      std::vector<NormalizerPtr> parts;
      MTOK_RETURN_IF_ERROR(ReadSequenceParts(r, depth, ReadNormalizer, &parts, type));
      *out = MakeSequenceNormalizer(std::move(parts));
      return Status::Ok();
    }
    case c::kBert:
    case c::kBertNfdTable:
    case c::kBertExact: {
      bool clean, chinese, strip, lower;
      MTOK_RETURN_IF_ERROR(r.Bool(&clean));
      MTOK_RETURN_IF_ERROR(r.Bool(&chinese));
      MTOK_RETURN_IF_ERROR(r.Bool(&strip));
      MTOK_RETURN_IF_ERROR(r.Bool(&lower));
      *type = "BertNormalizer";
      if (t == c::kBertNfdTable && strip) {
        // MNN's form: accents are stripped through a per-code-point NFD table.
        std::vector<std::pair<char32_t, std::string_view>> table;
        MTOK_RETURN_IF_ERROR(ReadTable(r, &table));
        std::vector<NormalizerPtr> parts;
        parts.push_back(MakeBertNormalizer(clean, chinese, false, false));
        parts.push_back(MakeCodePointTableNormalizer(std::move(table)));
        parts.push_back(MakeStripAccentsNormalizer());
        if (lower) parts.push_back(MakeLowercaseNormalizer());
        *out = MakeSequenceNormalizer(std::move(parts));
        return Status::Ok();
      }
      *out = MakeBertNormalizer(clean, chinese, strip, lower);
      return Status::Ok();
    }
    case c::kNfkcTable: {
      std::vector<std::pair<char32_t, std::string_view>> table;
      MTOK_RETURN_IF_ERROR(ReadTable(r, &table));
      *type = "CodePointTable";
      *out = MakeCodePointTableNormalizer(std::move(table));
      return Status::Ok();
    }
    case c::kStrip: {
      bool left, right;
      MTOK_RETURN_IF_ERROR(r.Bool(&left));
      MTOK_RETURN_IF_ERROR(r.Bool(&right));
      *type = "Strip";
      *out = MakeStripNormalizer(left, right);
      return Status::Ok();
    }
    case c::kLowercase:
      *type = "Lowercase";
      *out = MakeLowercaseNormalizer();
      return Status::Ok();
    case c::kStripAccents:
      *type = "StripAccents";
      *out = MakeStripAccentsNormalizer();
      return Status::Ok();
    case c::kPrecompiled: {
      uint8_t mode;
      MTOK_RETURN_IF_ERROR(r.U8(&mode));
      if (mode > 1) return r.ErrorAt(at + 1, "unknown Precompiled mode " + std::to_string(mode));
      Charsmap map;
      MTOK_RETURN_IF_ERROR(ReadCharsmap(r, &map));
      *type = "Precompiled";
      if (mode == 0) {
        *out = MakePrecompiledNormalizer(map);
      } else {
        SpmNormalizerOptions opt;
        opt.charsmap = map;
        *out = MakeSentencePieceNormalizer(std::move(opt));
      }
      return Status::Ok();
    }
    case c::kSpmWhitespace:
      *type = "SentencePiece";
      return ReadSentencePiece(r, out);
    default:
      return r.ErrorAt(at, "unknown normalizer type " + std::to_string(t));
  }
}

}  // namespace mtok
