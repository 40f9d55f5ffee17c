#include "format/read_trailer.h"

#include <algorithm>
#include <cstring>

#include "common/utf8.h"
#include "io/codes.h"

namespace mtok {
namespace {

using Entry = SectionEntry;

std::string TagName(uint32_t tag) {
  std::string s(4, ' ');
  for (int i = 0; i < 4; ++i) {
    char c = static_cast<char>((tag >> (8 * i)) & 0xFF);
    s[i] = (c >= 0x20 && c < 0x7F) ? c : '?';
  }
  return s;
}

Status ReadTemplateItems(ByteReader& r, std::vector<TemplateItem>* items,
                         std::vector<std::pair<size_t, uint32_t>>* ids_at) {
  uint16_t n;
  MTOK_RETURN_IF_ERROR(r.U16(&n));
  for (uint16_t i = 0; i < n; ++i) {
    size_t at = r.pos();
    uint8_t kind;
    TemplateItem it;
    MTOK_RETURN_IF_ERROR(r.U8(&kind));
    MTOK_RETURN_IF_ERROR(r.U32(&it.type_id));
    if (kind > codes::post::kItemSpecial)
      return r.ErrorAt(at, "unknown template item kind " + std::to_string(kind));
    it.kind = static_cast<TemplateItem::Kind>(kind);
    if (it.kind == TemplateItem::kSpecial) {
      uint16_t m;
      MTOK_RETURN_IF_ERROR(r.U16(&m));
      MTOK_RETURN_IF_ERROR(r.CheckArray(m, 4));
      it.ids.resize(m);
      for (uint16_t k = 0; k < m; ++k) {
        ids_at->emplace_back(r.pos(), 0);
        MTOK_RETURN_IF_ERROR(r.U32(&it.ids[k]));
        ids_at->back().second = it.ids[k];
      }
    }
    items->push_back(std::move(it));
  }
  return Status::Ok();
}

Status ReadPost(ByteReader& r, Trailer* out) {
  size_t at = r.pos();
  uint8_t type;
  MTOK_RETURN_IF_ERROR(r.U8(&type));
  if (type == codes::post::kNone || type == codes::post::kByteLevel) {
    out->post = PostProcessor();
  } else if (type == codes::post::kTemplate || type == codes::post::kBert ||
             type == codes::post::kRoberta) {
    std::vector<TemplateItem> single, pair;
    MTOK_RETURN_IF_ERROR(ReadTemplateItems(r, &single, &out->post_ids));
    MTOK_RETURN_IF_ERROR(ReadTemplateItems(r, &pair, &out->post_ids));
    out->post = PostProcessor(std::move(single), std::move(pair));
    if (type != codes::post::kTemplate) out->post.SetOverflowTypeIds();
  } else {
    return r.ErrorAt(at, "unknown post-processor type " + std::to_string(type));
  }
  out->has_post = true;
  return Status::Ok();
}

// TRUN: [u64 max_length][u64 stride][u8 strategy][u8 direction]
Status ReadTruncation(ByteReader& r, TruncationParams* t) {
  uint64_t max_length, stride;
  uint8_t strategy, direction;
  MTOK_RETURN_IF_ERROR(r.U64(&max_length));
  MTOK_RETURN_IF_ERROR(r.U64(&stride));
  MTOK_RETURN_IF_ERROR(r.U8(&strategy));
  if (strategy > 2)
    return r.ErrorAt(r.pos() - 1, "unknown truncation strategy " + std::to_string(strategy));
  MTOK_RETURN_IF_ERROR(r.U8(&direction));
  if (direction > 1)
    return r.ErrorAt(r.pos() - 1, "unknown truncation direction " + std::to_string(direction));
  t->enabled = true;
  t->max_length = max_length;
  t->stride = stride;
  t->strategy = static_cast<TruncationParams::Strategy>(strategy);
  t->direction = static_cast<Side>(direction);
  return Status::Ok();
}

// PADS: [u8 direction][u8 flags][u64 length][u64 pad_to_multiple_of]
//       [u32 pad_id][u32 pad_type_id][str pad_token]
Status ReadPadding(ByteReader& r, EncodeDefaults* d) {
  constexpr uint8_t kFixed = 1, kMultiple = 2;
  uint8_t direction, flags;
  uint64_t length, multiple;
  MTOK_RETURN_IF_ERROR(r.U8(&direction));
  if (direction > 1)
    return r.ErrorAt(r.pos() - 1, "unknown padding direction " + std::to_string(direction));
  MTOK_RETURN_IF_ERROR(r.U8(&flags));
  if (flags & ~(kFixed | kMultiple))
    return r.ErrorAt(r.pos() - 1, "unknown padding flags " + std::to_string(flags));
  MTOK_RETURN_IF_ERROR(r.U64(&length));
  if (!(flags & kFixed) && length != 0)
    return r.ErrorAt(r.pos() - 8, "padding length " + std::to_string(length) +
                                      " without the fixed-length flag");
  MTOK_RETURN_IF_ERROR(r.U64(&multiple));
  if (!(flags & kMultiple) && multiple != 0)
    return r.ErrorAt(r.pos() - 8,
                     "pad_to_multiple_of " + std::to_string(multiple) + " without its flag");
  PaddingParams& p = d->padding;
  MTOK_RETURN_IF_ERROR(r.U32(&p.pad_id));
  MTOK_RETURN_IF_ERROR(r.U32(&p.pad_type_id));
  std::string_view token;
  MTOK_RETURN_IF_ERROR(ReadUtf8(r, &token, "pad_token"));
  p.enabled = true;
  p.direction = static_cast<Side>(direction);
  p.fixed = flags & kFixed;
  p.length = length;
  p.pad_to_multiple_of = multiple;
  p.pad_token.assign(token);
  d->pad_to_multiple_of_set = flags & kMultiple;
  return Status::Ok();
}

}  // namespace

Status ReadTrailerTable(const Buffer& bytes, FileComponents* f, Trailer* out) {
  const size_t size = bytes.size();
  out->begin = size;
  out->base = bytes.data();
  const size_t kLocator = 8 + sizeof(codes::kEndMagic);
  if (size < kLocator ||
      std::memcmp(bytes.data() + size - sizeof(codes::kEndMagic), codes::kEndMagic,
                  sizeof(codes::kEndMagic)) != 0)
    return Status::Ok();
  ByteReader r(bytes.data(), size - sizeof(codes::kEndMagic));
  r.set_section("extension trailer");
  r.seek(size - kLocator);
  uint64_t begin;
  MTOK_RETURN_IF_ERROR(r.U64(&begin));
  r = ByteReader(bytes.data(), size - kLocator);  // the table may not reach into the locator
  r.set_section("extension trailer");
  if (begin > r.size() || r.size() - begin < sizeof(codes::kExtMagic))
    return r.ErrorAt(size - kLocator, "trailer offset " + std::to_string(begin) + " is out of range");
  r.seek(begin);
  if (std::memcmp(r.data() + begin, codes::kExtMagic, sizeof(codes::kExtMagic)) != 0)
    return r.ErrorAt(begin, "no trailer magic at the offset the locator gives");
  r.seek(begin + sizeof(codes::kExtMagic));
  uint32_t n;
  MTOK_RETURN_IF_ERROR(r.U32(&n));
  MTOK_RETURN_IF_ERROR(r.CheckArray(n, 24));
  std::vector<Entry> entries(n);
  for (Entry& e : entries) {
    MTOK_RETURN_IF_ERROR(r.U32(&e.tag));
    MTOK_RETURN_IF_ERROR(r.U32(&e.flags));
    MTOK_RETURN_IF_ERROR(r.U64(&e.offset));
    MTOK_RETURN_IF_ERROR(r.U64(&e.size));
  }
  const uint64_t table_end = r.pos();
  f->info.sections.push_back({"extension trailer", "", begin, table_end - begin});

  // Bounds and overlap checks before any payload is read.
  std::vector<Entry> sorted = entries;
  std::sort(sorted.begin(), sorted.end(),
            [](const Entry& a, const Entry& b) { return a.offset < b.offset; });
  uint64_t prev_end = table_end;
  for (const Entry& e : sorted) {
    if (e.offset < prev_end)
      return r.ErrorAt(begin, "section " + TagName(e.tag) + " at offset " +
                                  std::to_string(e.offset) + " overlaps the table or another section");
    if (e.offset > r.size() || e.size > r.size() - e.offset)
      return r.ErrorAt(begin, "section " + TagName(e.tag) + " (offset " + std::to_string(e.offset) +
                                  ", size " + std::to_string(e.size) + ") runs past the end of the file");
    prev_end = e.offset + e.size;
  }
  for (const Entry& e : entries) f->info.sections.push_back({TagName(e.tag), "", e.offset, e.size});
  out->entries = std::move(entries);
  out->begin = begin;
  return Status::Ok();
}

Status ReadTrailerSections(const Buffer& bytes, FileComponents* f, size_t added_count, Trailer* out) {
  ByteReader r(bytes.data(), bytes.size());
  for (const Entry& e : out->entries) {
    if (codes::tag::IsAccel(e.tag)) continue;  // read by the model readers
    ByteReader s(r.data(), e.offset + e.size);
    s.seek(e.offset);
    std::string name = "extension section " + TagName(e.tag);
    s.set_section(name.c_str());
    if (e.tag == codes::tag::kAddedFlags) {
      uint32_t count;
      MTOK_RETURN_IF_ERROR(s.U32(&count));
      if (count != added_count)
        return s.ErrorAt(e.offset, "holds flags for " + std::to_string(count) +
                                       " added tokens, the file has " + std::to_string(added_count));
      std::string_view flags;
      MTOK_RETURN_IF_ERROR(s.Bytes(count, &flags));
      out->added_flags.assign(flags.begin(), flags.end());
    } else if (e.tag == codes::tag::kPost) {
      MTOK_RETURN_IF_ERROR(ReadPost(s, out));
    } else if (e.tag == codes::tag::kOffsetTrim) {
      uint8_t add_prefix_space;
      MTOK_RETURN_IF_ERROR(s.U8(&add_prefix_space));
      out->trim_offsets = true;
      out->trim_add_prefix_space = add_prefix_space != 0;
    } else if (e.tag == codes::tag::kTruncation) {
      MTOK_RETURN_IF_ERROR(ReadTruncation(s, &out->encode_defaults.truncation));
    } else if (e.tag == codes::tag::kPadding) {
      MTOK_RETURN_IF_ERROR(ReadPadding(s, &out->encode_defaults));
    } else if (e.tag == codes::tag::kTemplates) {
      f->info.chat_json =
          std::string_view(reinterpret_cast<const char*>(r.data() + e.offset), e.size);
      size_t bad;
      if (!utf8::validate(f->info.chat_json, &bad))
        return s.ErrorAt(e.offset + bad, "chat templates JSON is not valid UTF-8");
      s.seek(e.offset + e.size);
    } else if (e.flags & 1) {
      return s.ErrorAt(e.offset, "required section of unknown kind; this file needs a newer mtok");
    } else {
      s.seek(e.offset + e.size);  // optional section we do not know: skipped
    }
    if (!s.at_end())
      return s.Error(std::to_string(s.remaining()) + " unread bytes at the end of the section");
  }
  return Status::Ok();
}

}  // namespace mtok
