// Tokenizer.encode_batch_numpy: a batch as numpy arrays that wrap native
// buffers (no per-row Python objects, no copy).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <algorithm>

#include "mtok/encoding.h"
#include "errors.h"
#include "numpy_out.h"
#include "py_tokenizer.h"

namespace nb = nanobind;
using mtok_py::EncodeConfig;
using mtok_py::PyTokenizer;
using mtok_py::ToNumpy;

namespace {

// Rows into one padded matrix and its attention mask.
nb::tuple Padded(const std::vector<std::vector<uint32_t>>& rows, const mtok::PaddingParams& p) {
  size_t longest = 0;
  for (const auto& r : rows) longest = std::max(longest, r.size());
  // HF never cuts a row longer than the padding length; the matrix fits it.
  const size_t width = std::max(longest, mtok::PadTarget(longest, p));
  std::vector<uint32_t> ids(rows.size() * width, p.pad_id);
  std::vector<uint32_t> mask(rows.size() * width, 0);
  for (size_t i = 0; i < rows.size(); ++i) {
    const size_t start = i * width + (p.direction == mtok::Side::kLeft ? width - rows[i].size() : 0);
    std::copy(rows[i].begin(), rows[i].end(), ids.begin() + start);
    std::fill(mask.begin() + start, mask.begin() + start + rows[i].size(), 1u);
  }
  return nb::make_tuple(ToNumpy(std::move(ids), {rows.size(), width}),
                        ToNumpy(std::move(mask), {rows.size(), width}));
}

// Rows as one flat array and the row_splits that delimit them.
nb::tuple Ragged(const std::vector<std::vector<uint32_t>>& rows) {
  std::vector<int64_t> splits(rows.size() + 1, 0);
  for (size_t i = 0; i < rows.size(); ++i) splits[i + 1] = splits[i] + rows[i].size();
  std::vector<uint32_t> ids;
  ids.reserve(static_cast<size_t>(splits.back()));
  for (const auto& r : rows) ids.insert(ids.end(), r.begin(), r.end());
  const size_t n = ids.size(), m = splits.size();
  return nb::make_tuple(ToNumpy(std::move(ids), {n}), ToNumpy(std::move(splits), {m}));
}

nb::tuple EncodeBatchNumpy(const PyTokenizer& self, nb::handle texts, nb::handle pairs,
                           bool add_special, const EncodeConfig* config, int threads, bool pad) {
  mtok_py::TextViews t = mtok_py::ViewTexts(texts), p;
  if (!pairs.is_none()) {
    p = mtok_py::ViewTexts(pairs);
    if (p.views.size() != t.views.size()) throw nb::value_error("texts and pairs must have the same length");
  }
  mtok::EncodeOptions opt = mtok_py::MakeOptions(add_special, config, false);
  mtok::PaddingParams padding = opt.padding;
  opt.padding.enabled = false;  // the matrix is padded below, in one pass
  std::vector<std::vector<uint32_t>> rows;
  mtok::Status st;
  {
    nb::gil_scoped_release release;
    st = self.tok->EncodeBatchIds(t.views.data(), pairs.is_none() ? nullptr : p.views.data(),
                                  t.views.size(), opt, threads, &rows);
  }
  mtok_py::Check(st);
  if (!pad) return Ragged(rows);
  if (!padding.enabled) padding = mtok::PaddingParams();  // right, pad id 0, to the longest
  return Padded(rows, padding);
}

}  // namespace

void bind_batch_numpy(nb::class_<PyTokenizer>& cls) {
  cls.def("encode_batch_numpy", &EncodeBatchNumpy, nb::arg("texts"), nb::arg("pairs").none(),
          nb::arg("add_special_tokens"), nb::arg("config").none(), nb::arg("threads"),
          nb::arg("pad"),
          "(ids, attention_mask) uint32 matrices when pad, else (ids, row_splits).");
}
