#include "common/utf8.h"
#include "format/codes.h"
#include "format/loaded_file.h"

namespace mtok {

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
        MTOK_RETURN_IF_ERROR(CompileFileRegex(r, pat_at, pattern, &re));
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
      uint32_t n;
      MTOK_RETURN_IF_ERROR(r.U32(&n));
      MTOK_RETURN_IF_ERROR(r.CheckArray(n, 1));
      std::vector<DecoderPtr> parts;
      std::string names;
      for (uint32_t i = 0; i < n; ++i) {
        DecoderPtr d;
        std::string sub;
        MTOK_RETURN_IF_ERROR(ReadDecoder(r, depth + 1, &d, &sub));
        names += (i ? "," : "") + sub;
        if (d) parts.push_back(std::move(d));
      }
      *type = "Sequence[" + names + "]";
      *out = MakeSequenceDecoder(std::move(parts));
      return Status::Ok();
    }
    default:
      return r.ErrorAt(at, "unknown decoder type " + std::to_string(t));
  }
}

}  // namespace mtok
