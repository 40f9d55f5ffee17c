#include "common/utf8.h"
#include "io/codes.h"
#include "format/section_readers.h"

namespace mtok {
namespace {

Status ReadSentencePieceDecoder(ByteReader& r, DecoderPtr* out) {
  size_t at = r.pos();
  uint8_t flags;
  MTOK_RETURN_IF_ERROR(r.U8(&flags));
  if (flags & ~0x07) return r.ErrorAt(at, "unknown SentencePiece decoder flag bits");
  SpmDecoderOptions opt;
  opt.add_dummy_prefix = flags & 1;
  opt.remove_extra_whitespaces = flags & 2;
  opt.byte_fallback = flags & 4;
  MTOK_RETURN_IF_ERROR(ReadUtf8(r, &opt.unk_piece, "unk piece"));
  MTOK_RETURN_IF_ERROR(ReadUtf8(r, &opt.unk_surface, "unk surface"));
  MTOK_RETURN_IF_ERROR(ReadUtf8List(r, &opt.control, "control piece"));
  *out = MakeSentencePieceDecoder(std::move(opt));
  return Status::Ok();
}

}  // namespace

Status ReadDecoder(ByteReader& r, int depth, DecoderPtr* out, std::string* type) {
  namespace c = codes::dec;
  if (depth > codes::kMaxNesting) return r.Error("decoder Sequence nested too deeply");
  size_t at = r.pos();
  uint8_t t;
  MTOK_RETURN_IF_ERROR(r.U8(&t));
  switch (t) {
    case c::kNone:
      *type = "None";
      out->reset();
      return Status::Ok();
    case c::kByteLevel:
      *type = "ByteLevel";
      *out = MakeByteLevelDecoder();
      return Status::Ok();
    case c::kByteFallback:
      *type = "ByteFallback";
      *out = MakeByteFallbackDecoder();
      return Status::Ok();
    case c::kFuse:
      *type = "Fuse";
      *out = MakeFuseDecoder();
      return Status::Ok();
    case c::kReplace:
    case c::kReplaceRegex: {
      std::string_view pattern, content;
      size_t pat_at = r.pos();
      MTOK_RETURN_IF_ERROR(ReadUtf8(r, &pattern, "Replace pattern"));
      MTOK_RETURN_IF_ERROR(ReadUtf8(r, &content, "Replace content"));
      *type = "Replace";
      if (t == c::kReplace) {
        *out = MakeReplaceDecoder(std::string(pattern), std::string(content));
      } else {
        std::unique_ptr<Regex> re;
        MTOK_RETURN_IF_ERROR(CompileFileRegex(r, pat_at, pattern, RegexDialect::kOniguruma, &re));
        *out = MakeRegexReplaceDecoder(std::move(re), std::string(content));
      }
      return Status::Ok();
    }
    case c::kStrip: {
      std::string_view content;
      uint32_t start, stop;
      size_t c_at = r.pos();
      MTOK_RETURN_IF_ERROR(ReadUtf8(r, &content, "Strip content"));
      MTOK_RETURN_IF_ERROR(r.U32(&start));
      MTOK_RETURN_IF_ERROR(r.U32(&stop));
      if (utf8::count_chars(content) != 1)
        return r.ErrorAt(c_at, "Strip content must be exactly one character");
      int len;
      *type = "Strip";
      *out = MakeStripDecoder(utf8::decode(content, 0, &len), start, stop);
      return Status::Ok();
    }
    case c::kSequence: {
      std::vector<DecoderPtr> parts;
      MTOK_RETURN_IF_ERROR(ReadSequenceParts(r, depth, ReadDecoder, &parts, type));
      *out = MakeSequenceDecoder(std::move(parts));
      return Status::Ok();
    }
    case c::kMetaspace:
    case c::kMetaspaceFull: {
      std::string_view rep;
      size_t rep_at = r.pos();
      MTOK_RETURN_IF_ERROR(ReadUtf8(r, &rep, "Metaspace replacement"));
      if (utf8::count_chars(rep) != 1)
        return r.ErrorAt(rep_at, "Metaspace replacement must be exactly one character");
      bool drop_in_first;
      if (t == c::kMetaspace) {
        MTOK_RETURN_IF_ERROR(r.Bool(&drop_in_first));  // add_prefix_space
      } else {
        size_t s_at = r.pos();
        uint8_t scheme;
        bool split;
        MTOK_RETURN_IF_ERROR(r.U8(&scheme));
        if (scheme > 2) return r.ErrorAt(s_at, "unknown Metaspace prepend_scheme " + std::to_string(scheme));
        MTOK_RETURN_IF_ERROR(r.Bool(&split));
        drop_in_first = scheme != 2;
      }
      int len;
      *type = "Metaspace";
      *out = MakeMetaspaceDecoder(utf8::decode(rep, 0, &len), drop_in_first);
      return Status::Ok();
    }
    case c::kWordPiece: {
      std::string_view prefix;
      bool cleanup;
      MTOK_RETURN_IF_ERROR(ReadUtf8(r, &prefix, "WordPiece prefix"));
      MTOK_RETURN_IF_ERROR(r.Bool(&cleanup));
      *type = "WordPiece";
      *out = MakeWordPieceDecoder(std::string(prefix), cleanup);
      return Status::Ok();
    }
    case c::kCtc: {
      std::string_view pad, delimiter;
      bool cleanup;
      MTOK_RETURN_IF_ERROR(ReadUtf8(r, &pad, "CTC pad_token"));
      MTOK_RETURN_IF_ERROR(ReadUtf8(r, &delimiter, "CTC word_delimiter_token"));
      MTOK_RETURN_IF_ERROR(r.Bool(&cleanup));
      *type = "CTC";
      *out = MakeCtcDecoder(std::string(pad), std::string(delimiter), cleanup);
      return Status::Ok();
    }
    case c::kBpeSuffix: {
      std::string_view suffix;
      MTOK_RETURN_IF_ERROR(ReadUtf8(r, &suffix, "BPEDecoder suffix"));
      *type = "BPEDecoder";
      *out = MakeBpeSuffixDecoder(std::string(suffix));
      return Status::Ok();
    }
    case c::kSentencePiece:
      *type = "SentencePiece";
      return ReadSentencePieceDecoder(r, out);
    default:
      return r.ErrorAt(at, "unknown decoder type " + std::to_string(t));
  }
}

}  // namespace mtok
