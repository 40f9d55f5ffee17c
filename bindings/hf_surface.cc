// What mtok.hf needs natively: the vocabulary and added tokens as Python
// objects, the decoder over token strings, and a batch encoded straight into
// the columns of a transformers BatchEncoding (no Encoding object per row).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "errors.h"
#include "mtok/convert.h"
#include "py_tokenizer.h"

namespace nb = nanobind;
using mtok_py::EncodeConfig;
using mtok_py::PyTokenizer;

namespace {

// HF's get_vocab: the strings of the model's ids, and added tokens by
// their content (which id_to_token does not give for normalized ones).
nb::dict Vocab(const PyTokenizer& self, bool with_added) {
  const uint32_t limit = with_added ? self.tok->IdLimit() : self.tok->VocabSize(false);
  std::vector<mtok::AddedTokenInfo> added = self.tok->AddedTokens();
  std::vector<bool> is_added(limit, false);
  for (const mtok::AddedTokenInfo& t : added)
    if (t.id < limit) is_added[t.id] = true;
  nb::dict out;
  std::string token;
  for (uint32_t id = 0; id < limit; ++id) {
    if (is_added[id] || !self.tok->IdToToken(id, &token)) continue;
    out[nb::str(token.data(), token.size())] = nb::int_(id);
  }
  for (const mtok::AddedTokenInfo& t : added)
    if (t.id < limit) out[nb::str(t.content.data(), t.content.size())] = nb::int_(t.id);
  return out;
}

nb::list AddedTokens(const PyTokenizer& self) {
  nb::list out;
  for (const mtok::AddedTokenInfo& t : self.tok->AddedTokens())
    out.append(nb::make_tuple(t.id, nb::str(t.content.data(), t.content.size()), t.special,
                              t.lstrip, t.rstrip, t.single_word, t.normalized));
  return out;
}

// Column bits of EncodeBatchColumns.
enum : int { kTypeIds = 1, kAttention = 2, kSpecialMask = 4, kOffsets = 8, kLength = 16 };

template <typename T>
PyObject* SmallInts(const std::vector<T>& v) {
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(v.size()));
  if (list == nullptr) throw nb::python_error();
  for (size_t i = 0; i < v.size(); ++i) PyList_SET_ITEM(list, i, PyLong_FromUnsignedLong(v[i]));
  return list;
}

PyObject* Offsets(const mtok::Encoding& e) {
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(e.offsets.size()));
  if (list == nullptr) throw nb::python_error();
  for (size_t i = 0; i < e.offsets.size(); ++i)
    PyList_SET_ITEM(list, i, nb::make_tuple(e.offsets[i].first, e.offsets[i].second).release().ptr());
  return list;
}

// transformers' _convert_encoding for every row, in C++: input_ids and the
// asked-for columns as lists of lists; with `overflow`, each row's
// overflowing pieces follow it and overflow_to_sample_mapping says whose
// they are. Also returns n_sequences of the first row (BatchEncoding's).
nb::tuple EncodeBatchColumns(const PyTokenizer& self, nb::handle texts, nb::handle pairs,
                             bool add_special, const EncodeConfig* config, int threads, int want,
                             bool overflow) {
  mtok_py::TextViews t = mtok_py::ViewTexts(texts), p;
  const bool has_pairs = !pairs.is_none();
  if (has_pairs) {
    p = mtok_py::ViewTexts(pairs);
    if (p.views.size() != t.views.size()) throw nb::value_error("texts and pairs must have the same length");
  }
  // Added tokens as the config says (encode_special_tokens).
  mtok::EncodeOptions opt = mtok_py::MakeOptions(add_special, config, (want & kOffsets) != 0);
  std::vector<mtok::Encoding> encs;
  mtok::Status st;
  {
    nb::gil_scoped_release release;
    st = self.tok->EncodeBatch(t.views.data(), has_pairs ? p.views.data() : nullptr, t.views.size(),
                               opt, threads, &encs);
  }
  mtok_py::Check(st);
  nb::list ids, type_ids, attention, special, offsets, lengths, mapping;
  for (size_t row = 0; row < encs.size(); ++row) {
    const size_t pieces = 1 + (overflow ? encs[row].overflowing.size() : 0);
    for (size_t k = 0; k < pieces; ++k) {
      const mtok::Encoding& e = k == 0 ? encs[row] : encs[row].overflowing[k - 1];
      ids.append(self.id_objects->List(e.ids));
      if (want & kTypeIds) type_ids.append(nb::steal(SmallInts(e.type_ids)));
      if (want & kAttention) attention.append(nb::steal(SmallInts(e.attention_mask)));
      if (want & kSpecialMask) special.append(nb::steal(SmallInts(e.special_mask)));
      if (want & kOffsets) offsets.append(nb::steal(Offsets(e)));
      if (want & kLength) lengths.append(e.ids.size());
      if (overflow) mapping.append(row);
    }
  }
  nb::dict out;
  out["input_ids"] = ids;
  if (want & kTypeIds) out["token_type_ids"] = type_ids;
  if (want & kAttention) out["attention_mask"] = attention;
  if (want & kSpecialMask) out["special_tokens_mask"] = special;
  if (want & kOffsets) out["offset_mapping"] = offsets;
  if (want & kLength) out["length"] = lengths;
  if (overflow) out["overflow_to_sample_mapping"] = mapping;
  int n_sequences = 1;
  if (!encs.empty()) {
    const int n = encs[0].sequences[0].set + encs[0].sequences[1].set;
    n_sequences = n == 0 ? 1 : n;
  }
  return nb::make_tuple(out, n_sequences);
}

std::vector<double> HfJsonReread(std::vector<double> values) {
  for (double& v : values) v = mtok::convert::HfJsonReread(v);
  return values;
}

}  // namespace

void bind_hf_surface(nb::module_& m, nb::class_<PyTokenizer>& cls) {
  m.def("hf_json_reread", &HfJsonReread, nb::arg("values"),
        "Each float as HF tokenizers holds it after writing it into tokenizer.json and reading "
        "it back (pickling or copying a Tokenizer): serde_json may land an ulp away.");
  cls.def("vocab", &Vocab, nb::arg("with_added_tokens"),
          "{token: id}: the model's vocabulary, or with the added tokens.")
      .def("added_tokens", &AddedTokens,
           "[(id, content, special, lstrip, rstrip, single_word, normalized)] in file order.")
      .def("decode_tokens",
           [](const PyTokenizer& self, std::vector<std::string> tokens) {
             std::string s;
             {
               nb::gil_scoped_release release;
               s = self.tok->DecodeTokens(std::move(tokens));
             }
             return s;
           },
           nb::arg("tokens"), "HF's decoder.decode(tokens).")
      .def("post_process",
           [](const PyTokenizer& self, const mtok::Encoding& encoding, const mtok::Encoding* pair,
              bool add_special, const EncodeConfig* config) {
             mtok::EncodeOptions opt = mtok_py::MakeOptions(add_special, config, encoding.detailed);
             mtok::Encoding out;
             mtok_py::Check(self.tok->PostProcessEncodings(encoding, pair, opt, &out));
             return out;
           },
           nb::arg("encoding"), nb::arg("pair").none(), nb::arg("add_special_tokens"),
           nb::arg("config").none(), "HF's post_process: truncation, post-processor, padding.")
      .def("encode_batch_columns", &EncodeBatchColumns, nb::arg("texts"), nb::arg("pairs").none(),
           nb::arg("add_special_tokens"), nb::arg("config").none(), nb::arg("threads"),
           nb::arg("want"), nb::arg("overflow"),
           "({column: rows}, n_sequences) as transformers' BatchEncoding holds them. want: 1 "
           "token_type_ids, 2 attention_mask, 4 special_tokens_mask, 8 offset_mapping, 16 length.");
}
