// Vocab records shared by the model readers: one [str token][u32 id] entry,
// or the whole vocab adopted from the VOFF + VHSH acceleration sections.
#include <cstring>

#include "io/codes.h"
#include "io/slot_table.h"
#include "models/model_readers.h"

namespace mtok {

// Ids are bounded so a hostile file cannot make the id index huge.
constexpr uint32_t kMaxTokenId = 1u << 24;

Status ReadVocabEntry(ByteReader& r, Vocab* vocab, std::string_view* token, uint32_t* id) {
  size_t at = r.pos();
  // Token strings reach Python (id_to_token, decode): they must be UTF-8.
  MTOK_RETURN_IF_ERROR(ReadUtf8(r, token, "vocab token"));
  MTOK_RETURN_IF_ERROR(r.U32(id));
  if (*id >= kMaxTokenId)
    return r.ErrorAt(at, "token id " + std::to_string(*id) + " is beyond the limit of 2^24");
  // Id tables are indexed by id, so a few entries with huge ids would make a
  // tiny file allocate hundreds of MB. An entry takes at least 6 bytes: ids
  // stay below twice the entries the file could hold, plus slack.
  const uint64_t limit = 2 * (r.size() / 6) + 65536;
  if (*id >= limit)
    return r.ErrorAt(at, "token id " + std::to_string(*id) + " is too large for a file of " +
                             std::to_string(r.size()) + " bytes (limit " + std::to_string(limit) + ")");
  if (!vocab->Add(*token, *id))
    return r.ErrorAt(at, "token id " + std::to_string(*id) + " appears twice in the vocab");
  return Status::Ok();
}

// Adopts VOFF + VHSH: the vocab is used in place, its records unparsed.
// Returns false (and changes nothing) when the file lacks them.
Status AdoptVocab(ByteReader& r, const SectionTable& trailer, uint32_t vocab_size, Vocab* vocab,
                  bool* adopted) {
  std::string_view voff, vhsh;
  *adopted = false;
  if (!trailer.Find(codes::tag::kVocabOffsets, &voff) || !trailer.Find(codes::tag::kVocabIndex, &vhsh))
    return Status::Ok();
  auto fail = [](const std::string& what) { return FormatError("extension section VOFF: " + what); };
  if (voff.size() < 8 || reinterpret_cast<uintptr_t>(voff.data()) % 4 != 0) return fail("too short or misaligned");
  uint32_t id_limit, region_end;
  std::memcpy(&id_limit, voff.data(), 4);
  std::memcpy(&region_end, voff.data() + 4, 4);
  if ((voff.size() - 8) / 4 != id_limit || (voff.size() - 8) % 4 != 0)
    return fail("size does not match its id count");
  if (id_limit > (1u << 24)) return fail("id count beyond the limit of 2^24");
  if (region_end < r.pos() || region_end > r.size()) return fail("vocab end is out of range");
  U32Slots index;
  MTOK_RETURN_IF_ERROR(ParseSlotTable(vhsh, "VHSH", 1, &index));
  vocab->UseMappedIndex(index.slots, index.capacity);
  if (!vocab->ValidMappedIndex()) return FormatError("extension section VHSH: no free slot");
  vocab->UseMappedRecords(r.data(), r.pos(), region_end,
                          reinterpret_cast<const uint32_t*>(voff.data() + 8), id_limit, vocab_size);
  r.seek(region_end);
  *adopted = true;
  return Status::Ok();
}

Status ReadOrAdoptVocab(ByteReader& r, const SectionTable& trailer, uint32_t vocab_size, Vocab* vocab) {
  MTOK_RETURN_IF_ERROR(r.CheckArray(vocab_size, 6));
  bool adopted;
  MTOK_RETURN_IF_ERROR(AdoptVocab(r, trailer, vocab_size, vocab, &adopted));
  if (adopted) return Status::Ok();
  vocab->Reserve(vocab_size);
  for (uint32_t i = 0; i < vocab_size; ++i) {
    std::string_view token;
    uint32_t id;
    MTOK_RETURN_IF_ERROR(ReadVocabEntry(r, vocab, &token, &id));
  }
  vocab->EndAdding();
  return Status::Ok();
}

}  // namespace mtok
