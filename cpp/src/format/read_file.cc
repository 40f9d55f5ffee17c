// Top-level .mtok reader: header, the seed's sections in order, then the
// optional extension trailer. Every offset is checked before use.
#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "common/utf8.h"

#include "io/codes.h"
#include "format/section_readers.h"
#include "format/read_header.h"
#include "format/read_trailer.h"

namespace mtok {
namespace {

// Runs one section reader and records the section's extent.
template <typename Fn>
Status Section(ByteReader& r, FileComponents* f, const char* name, Fn fn) {
  r.set_section(name);
  size_t begin = r.pos();
  std::string type;
  MTOK_RETURN_IF_ERROR(fn(&type));
  f->info.sections.push_back({name, type, begin, r.pos() - begin});
  return Status::Ok();
}

Status ReadAddedTokens(ByteReader& r, std::vector<AddedToken>* out) {
  uint32_t n;
  MTOK_RETURN_IF_ERROR(r.U32(&n));
  MTOK_RETURN_IF_ERROR(r.CheckArray(n, 9));
  out->reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    AddedToken t;
    size_t at = r.pos();
    MTOK_RETURN_IF_ERROR(r.U32(&t.id));
    MTOK_RETURN_IF_ERROR(r.Bool(&t.special));
    MTOK_RETURN_IF_ERROR(r.Bool(&t.lstrip));
    MTOK_RETURN_IF_ERROR(r.Bool(&t.rstrip));
    MTOK_RETURN_IF_ERROR(ReadUtf8(r, &t.content, "added token content"));
    if (t.id >= (1u << 24)) return r.ErrorAt(at, "added token id beyond the limit of 2^24");
    out->push_back(t);
  }
  return Status::Ok();
}

// Ids that name a token: model vocab entries and added tokens. Ids in the
// header and the post-processor must be such ids.
class KnownIds {
 public:
  KnownIds(const Model& model, const std::vector<AddedToken>& added) : model_(model) {
    for (const AddedToken& t : added) added_.insert(t.id);
  }
  bool operator()(uint32_t id) const {
    return added_.count(id) != 0 || (id < model_.IdLimit() && !model_.IdToToken(id).empty());
  }

 private:
  const Model& model_;
  std::unordered_set<uint32_t> added_;
};

Status CheckHeaderIds(const ByteReader& r, const TokenizerInfo& info, const KnownIds& known) {
  // The ids line starts after the first two '\n' (ReadHeader checked them).
  const uint8_t* d = r.data();
  size_t at = 0;
  for (int line = 0; line < 2; ++line)
    at = static_cast<const uint8_t*>(std::memchr(d + at, '\n', r.size() - at)) - d + 1;
  ByteReader h(d, r.size());
  const std::pair<const char*, const std::vector<uint32_t>*> lists[] = {
      {"special", &info.special_ids}, {"stop", &info.stop_ids}, {"prefix", &info.prefix_ids}};
  for (const auto& [name, ids] : lists) {
    for (uint32_t id : *ids) {
      if (!known(id))
        return h.ErrorAt(at, std::string(name) + " id " + std::to_string(id) +
                                 " is neither in the vocab nor an added token");
    }
  }
  return Status::Ok();
}

// MNN's single-sequence post-processor program after BOS.
Status ReadPostProgram(ByteReader& r, const KnownIds& known, PostProcessor* post) {
  uint16_t n;
  MTOK_RETURN_IF_ERROR(r.U16(&n));
  std::vector<TemplateItem> single;
  for (uint16_t i = 0; i < n; ++i) {
    size_t at = r.pos();
    uint8_t op;
    MTOK_RETURN_IF_ERROR(r.U8(&op));
    if (op == codes::post::kOpSequenceA) {
      single.push_back({TemplateItem::kSequenceA, 0, {}, {}});
    } else if (op == codes::post::kOpSpecialToken) {
      uint32_t id;
      MTOK_RETURN_IF_ERROR(r.U32(&id));
      if (!known(id))
        return r.ErrorAt(at + 1, "special token id " + std::to_string(id) +
                                     " is neither in the vocab nor an added token");
      single.push_back({TemplateItem::kSpecial, 0, {id}, {}});
    } else {
      return r.ErrorAt(at, "unknown post-processor op " + std::to_string(op));
    }
  }
  if (n > 0) *post = PostProcessor(single, single);
  return Status::Ok();
}

}  // namespace

Status ReadMtok(std::shared_ptr<const Buffer> bytes, FileComponents* f) {
  f->bytes = bytes;
  ByteReader r(bytes->data(), bytes->size());
  int type;
  MTOK_RETURN_IF_ERROR(ReadHeader(r, &type, &f->info));
  if (type != codes::kPipelineType)
    return r.ErrorAt(0, "tokenizer type " + std::to_string(type) +
                            " is a legacy text format; convert it with mtok export");
  f->info.sections.push_back({"header", "", 0, r.pos()});
  // The trailer table comes first: model readers use its acceleration sections.
  Trailer trailer;
  MTOK_RETURN_IF_ERROR(ReadTrailerTable(*bytes, f, &trailer));
  const size_t header_end = r.pos();
  if (header_end > trailer.begin) return r.ErrorAt(trailer.begin, "the trailer overlaps the header");
  r = ByteReader(bytes->data(), trailer.begin);
  r.seek(header_end);

  MTOK_RETURN_IF_ERROR(Section(r, f, "normalizer", [&](std::string* t) {
    return ReadNormalizer(r, 0, &f->normalizer, t);
  }));
  MTOK_RETURN_IF_ERROR(Section(r, f, "pre_tokenizer", [&](std::string* t) {
    return ReadPreTokenizer(r, 0, &f->pre_tokenizer, t);
  }));
  MTOK_RETURN_IF_ERROR(Section(r, f, "model", [&](std::string* t) {
    return ReadModel(r, trailer, &f->model, t);
  }));
  f->info.model_type = f->info.sections.back().type;
  MTOK_RETURN_IF_ERROR(Section(r, f, "decoder", [&](std::string* t) {
    return ReadDecoder(r, 0, &f->decoder, t);
  }));
  std::vector<AddedToken>& added = f->added_tokens;
  MTOK_RETURN_IF_ERROR(Section(r, f, "added_tokens", [&](std::string*) {
    return ReadAddedTokens(r, &added);
  }));

  const KnownIds known(*f->model, added);
  MTOK_RETURN_IF_ERROR(CheckHeaderIds(r, f->info, known));

  // The tail sections are optional: a file may end after any of them.
  TokenizerInfo& info = f->info;
  if (!r.at_end()) {
    MTOK_RETURN_IF_ERROR(Section(r, f, "chat_template", [&](std::string*) {
      size_t at = r.pos();
      MTOK_RETURN_IF_ERROR(r.LongStr(&info.chat_template));
      size_t bad;
      if (!utf8::validate(info.chat_template, &bad))
        return r.ErrorAt(at + 4 + bad, "chat template is not valid UTF-8");
      return Status::Ok();
    }));
  }
  // Text fields reach Python as str: they must be UTF-8.
  if (!r.at_end()) {
    MTOK_RETURN_IF_ERROR(Section(r, f, "eos", [&](std::string*) {
      return ReadUtf8(r, &info.eos_token, "eos token");
    }));
  }
  if (!r.at_end()) {
    MTOK_RETURN_IF_ERROR(Section(r, f, "flags", [&](std::string*) { return r.U8(&info.flags); }));
  }
  if (!r.at_end()) {
    MTOK_RETURN_IF_ERROR(Section(r, f, "bos", [&](std::string*) {
      return ReadUtf8(r, &info.bos_token, "bos token");
    }));
  }
  if (!r.at_end()) {
    MTOK_RETURN_IF_ERROR(Section(r, f, "post_program", [&](std::string*) {
      return ReadPostProgram(r, known, &f->post);
    }));
  }
  if (!r.at_end())
    return r.Error(std::to_string(r.remaining()) + " unexpected bytes after the last section");
  MTOK_RETURN_IF_ERROR(ReadTrailerSections(*bytes, f, added.size(), &trailer));
  for (size_t i = 0; i < added.size() && !trailer.added_flags.empty(); ++i) {
    added[i].single_word = trailer.added_flags[i] & 1;
    added[i].normalized = trailer.added_flags[i] & 2;
  }
  ByteReader post_reader(r.data(), r.size());
  post_reader.set_section("extension section POST");
  for (const auto& [at, id] : trailer.post_ids) {
    if (!known(id))
      return post_reader.ErrorAt(at, "special token id " + std::to_string(id) +
                                         " is neither in the vocab nor an added token");
  }
  if (trailer.has_post) f->post = std::move(trailer.post);
  f->info.encode_defaults = std::move(trailer.encode_defaults);
  if (trailer.trim_offsets) f->post.SetTrimOffsets(trailer.trim_add_prefix_space);
  return Status::Ok();
}

}  // namespace mtok
