// mtok.Encoding: the result of encode(..., return_encoding=True), with HF
// tokenizers' field names. Lists are built when a field is read.
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "mtok/encoding.h"

namespace nb = nanobind;
using mtok::Encoding;

namespace {

nb::list IntList(const std::vector<uint8_t>& v) {
  nb::list out;
  for (uint8_t x : v) out.append(nb::int_(x));
  return out;
}

nb::list OptionalInts(const std::vector<int32_t>& v) {
  nb::list out;
  for (int32_t x : v) out.append(x < 0 ? nb::object(nb::none()) : nb::object(nb::int_(x)));
  return out;
}

// HF sequence_ids: per token the sequence it belongs to (None for specials).
nb::list SequenceIds(const Encoding& e) {
  std::vector<int32_t> seq(e.size(), -1);
  bool any = false;
  for (int s = 0; s < 2; ++s) {
    if (!e.sequences[s].set) continue;
    any = true;
    for (uint32_t i = e.sequences[s].begin; i < e.sequences[s].end && i < seq.size(); ++i) seq[i] = s;
  }
  if (!any) seq.assign(e.size(), 0);
  return OptionalInts(seq);
}

}  // namespace

void bind_encoding(nb::module_& m) {
  nb::class_<Encoding>(m, "Encoding", "The tokens of one input, with HF tokenizers' fields.")
      .def_prop_ro("ids", [](const Encoding& e) { return e.ids; }, "Token ids.")
      .def_prop_ro("type_ids", [](const Encoding& e) { return e.type_ids; },
                   "Segment (token type) id of each token.")
      .def_prop_ro("tokens", [](const Encoding& e) { return e.tokens; }, "Token strings.")
      .def_prop_ro("offsets", [](const Encoding& e) { return e.offsets; },
                   "(start, end) character offsets of each token in its input text.")
      .def_prop_ro("attention_mask", [](const Encoding& e) { return IntList(e.attention_mask); },
                   nb::sig("def attention_mask(self) -> list[int]"), "1 for tokens, 0 for padding.")
      .def_prop_ro("special_tokens_mask", [](const Encoding& e) { return IntList(e.special_mask); },
                   nb::sig("def special_tokens_mask(self) -> list[int]"), "1 for special tokens added by the post-processor and padding.")
      .def_prop_ro("word_ids", [](const Encoding& e) { return OptionalInts(e.words); },
                   nb::sig("def word_ids(self) -> list[int | None]"),
                   "Index of the word (pre-token) of each token; None for special tokens.")
      .def_prop_ro("sequence_ids", &SequenceIds, nb::sig("def sequence_ids(self) -> list[int | None]"),
                   "Index of the input sequence of each token; None for special tokens.")
      .def_prop_ro("n_sequences",
                   [](const Encoding& e) {
                     int n = e.sequences[0].set + e.sequences[1].set;
                     return n == 0 ? 1 : n;
                   })
      .def_prop_ro("overflowing", [](const Encoding& e) { return e.overflowing; },
                   "The pieces truncation cut off, each a full Encoding.")
      .def("__len__", &Encoding::size)
      .def("__repr__", [](const Encoding& e) {
        return "Encoding(num_tokens=" + std::to_string(e.size()) +
               ", attributes=[ids, type_ids, tokens, offsets, attention_mask, "
               "special_tokens_mask, overflowing])";
      });
}
