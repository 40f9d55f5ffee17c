// mtok._native.Tokenizer: a thin handle over the immutable C++ tokenizer.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <exception>
#include <functional>
#include <optional>

#include "mtok/memory.h"
#include "errors.h"
#include "numpy_out.h"
#include "mtok/piece_cache.h"
#include "py_tokenizer.h"

namespace nb = nanobind;
using mtok::Tokenizer;
using mtok_py::EncodeConfig;
using mtok_py::PyTokenizer;

namespace {

PyTokenizer* Load(std::shared_ptr<const mtok::Buffer> buf) {
  std::unique_ptr<Tokenizer> t;
  mtok::Status st;
  {
    nb::gil_scoped_release release;
    st = Tokenizer::Load(std::move(buf), &t);
  }
  mtok_py::Check(st);
  return new PyTokenizer(std::move(t));
}

using Added = mtok::EncodeOptions::Added;

// kAll leaves what the options already say (a config may have turned added
// tokens off: encode_special_tokens).
void SetAdded(mtok::EncodeOptions* o, Added added, std::vector<uint32_t> allowed_ids) {
  if (added == Added::kAll) return;
  o->added = added;
  o->allowed_ids = std::move(allowed_ids);
}

// Below this many bytes the ids fast path keeps the GIL: letting it go and
// taking it back cost a third as much as encoding a short text ('hello
// world': 450 of 1,370 instructions, callgrind), and another thread waits
// for tens of microseconds at most.
constexpr size_t kKeepGilBelowBytes = 4096;

// Ids only, no truncation or padding: the fast path. `to_python` makes the
// result from the ids (a scratch vector, reused by the thread's next call).
template <typename ToPython>
auto EncodeIdsAs(const PyTokenizer& self, nb::handle text, bool add_special, Added added_mode,
                 std::vector<uint32_t> allowed_ids, int threads, ToPython to_python) {
  std::string_view s = mtok_py::ViewText(text);
  mtok::EncodeOptions opt = mtok_py::MakeOptions(add_special, nullptr, false);
  SetAdded(&opt, added_mode, std::move(allowed_ids));
  opt.threads = threads;
  thread_local std::vector<uint32_t> ids;  // reused: its capacity stays
  mtok::Status st;
  {
    std::optional<nb::gil_scoped_release> release;
    if (s.size() >= kKeepGilBelowBytes) release.emplace();
    st = self.tok->EncodeIds(s, opt, &ids);
  }
  mtok_py::Check(st);
  auto out = to_python(ids);
  mtok::TrimScratch(ids);
  return out;
}

nb::list EncodeIds(const PyTokenizer& self, nb::handle text, bool add_special, Added added_mode,
                   std::vector<uint32_t> allowed_ids, int threads) {
  return EncodeIdsAs(self, text, add_special, added_mode, std::move(allowed_ids), threads,
                     [&](const std::vector<uint32_t>& ids) { return self.id_objects->List(ids); });
}

// The same ids as a uint32 numpy array: no Python int per id.
nb::object EncodeIdsNumpy(const PyTokenizer& self, nb::handle text, bool add_special, Added added_mode,
                          std::vector<uint32_t> allowed_ids, int threads) {
  return EncodeIdsAs(self, text, add_special, added_mode, std::move(allowed_ids), threads, mtok_py::IdsArray);
}

mtok::Encoding EncodeFull(const PyTokenizer& self, nb::handle text, nb::handle pair,
                          bool add_special, const EncodeConfig* config, bool details,
                          Added added_mode, std::vector<uint32_t> allowed_ids) {
  std::string_view a = mtok_py::ViewText(text);
  std::string_view b = pair.is_none() ? std::string_view() : mtok_py::ViewText(pair);
  mtok::EncodeOptions opt = mtok_py::MakeOptions(add_special, config, details);
  SetAdded(&opt, added_mode, std::move(allowed_ids));
  mtok::Encoding out;
  mtok::Status st;
  {
    nb::gil_scoped_release release;
    st = pair.is_none() ? self.tok->Encode(a, opt, &out) : self.tok->EncodePair(a, b, opt, &out);
  }
  mtok_py::Check(st);
  return out;
}

// EncodeFull's ids alone, as a list of the tokenizer's shared ints: what
// encode() returns when truncation or padding applies (an Encoding's ids
// property made a new int per id, a third of a padded BERT encode).
nb::list EncodeFullIds(const PyTokenizer& self, nb::handle text, nb::handle pair, bool add_special,
                       const EncodeConfig* config) {
  const mtok::Encoding enc = EncodeFull(self, text, pair, add_special, config, false, Added::kAll, {});
  return self.id_objects->List(enc.ids);
}

// The views of texts and, unless pairs is None, of their pairs.
struct BatchInput {
  mtok_py::TextViews texts, pairs;
  bool has_pairs = false;
  BatchInput(nb::handle t, nb::handle p) : texts(mtok_py::ViewTexts(t)) {
    if (!p.is_none()) {
      pairs = mtok_py::ViewTexts(p);
      has_pairs = true;
      if (pairs.views.size() != texts.views.size())
        throw nb::value_error("texts and pairs must have the same length");
    }
  }
  const std::string_view* pair_data() const { return has_pairs ? pairs.views.data() : nullptr; }
};

std::vector<mtok::Encoding> EncodeBatchFull(const PyTokenizer& self, nb::handle texts,
                                            nb::handle pairs, bool add_special,
                                            const EncodeConfig* config, int threads) {
  BatchInput in(texts, pairs);
  mtok::EncodeOptions opt = mtok_py::MakeOptions(add_special, config, true);
  std::vector<mtok::Encoding> out;
  mtok::Status st;
  {
    nb::gil_scoped_release release;
    st = self.tok->EncodeBatch(in.texts.views.data(), in.pair_data(), in.texts.views.size(), opt,
                               threads, &out);
  }
  mtok_py::Check(st);
  return out;
}

nb::list EncodeBatchIds(const PyTokenizer& self, nb::handle texts, nb::handle pairs, bool add_special,
                        const EncodeConfig* config, int threads, Added added_mode,
                        std::vector<uint32_t> allowed_ids) {
  BatchInput in(texts, pairs);
  mtok::EncodeOptions opt = mtok_py::MakeOptions(add_special, config, false);
  SetAdded(&opt, added_mode, std::move(allowed_ids));
  const size_t n = in.texts.views.size();
  std::vector<std::vector<uint32_t>> out;
  PyObject* rows = PyList_New(static_cast<Py_ssize_t>(n));
  if (rows == nullptr) throw nb::python_error();
  nb::list result = nb::steal<nb::list>(rows);
  // Rows become Python lists on this thread, with the GIL, while the pool
  // still encodes later ones.
  size_t converted = 0;
  std::exception_ptr failed;
  const std::function<void(size_t)> ready = [&](size_t k) {
    nb::gil_scoped_acquire acquire;
    for (; converted < k && !failed; ++converted) {
      try {
        PyList_SET_ITEM(rows, converted, self.id_objects->List(out[converted]).release().ptr());
      } catch (...) {
        failed = std::current_exception();
      }
      std::vector<uint32_t>().swap(out[converted]);
    }
  };
  mtok::Status st;
  {
    nb::gil_scoped_release release;
    st = self.tok->EncodeBatchIds(in.texts.views.data(), in.pair_data(), n, opt, threads, &out, &ready);
  }
  if (failed) std::rethrow_exception(failed);
  mtok_py::Check(st);
  return result;
}

const char* SideName(mtok::Side s) { return s == mtok::Side::kLeft ? "left" : "right"; }

// The file's truncation and padding as HF's `truncation` / `padding` dicts
// (None when the file sets none).
nb::object TruncationDict(const mtok::TruncationParams& t) {
  if (!t.enabled) return nb::none();
  static const char* kStrategies[] = {"longest_first", "only_first", "only_second"};
  nb::dict d;
  d["max_length"] = t.max_length;
  d["stride"] = t.stride;
  d["strategy"] = kStrategies[static_cast<int>(t.strategy)];
  d["direction"] = SideName(t.direction);
  return d;
}

nb::object PaddingDict(const mtok::EncodeDefaults& e) {
  const mtok::PaddingParams& p = e.padding;
  if (!p.enabled) return nb::none();
  nb::dict d;
  d["length"] = p.fixed ? nb::object(nb::int_(p.length)) : nb::none();
  d["pad_to_multiple_of"] =
      e.pad_to_multiple_of_set ? nb::object(nb::int_(p.pad_to_multiple_of)) : nb::none();
  d["pad_id"] = p.pad_id;
  d["pad_token"] = p.pad_token;
  d["pad_type_id"] = p.pad_type_id;
  d["direction"] = SideName(p.direction);
  return d;
}

nb::dict Info(const PyTokenizer& self) {
  const mtok::TokenizerInfo& i = self.tok->info();
  nb::dict d;
  d["special_ids"] = i.special_ids;
  d["stop_ids"] = i.stop_ids;
  d["prefix_ids"] = i.prefix_ids;
  d["chat_template"] = nb::str(i.chat_template.data(), i.chat_template.size());
  d["eos_token"] = nb::str(i.eos_token.data(), i.eos_token.size());
  d["bos_token"] = nb::str(i.bos_token.data(), i.bos_token.size());
  d["chat_json"] = nb::str(i.chat_json.data(), i.chat_json.size());
  d["flags"] = i.flags;
  d["truncation"] = TruncationDict(i.encode_defaults.truncation);
  d["padding"] = PaddingDict(i.encode_defaults);
  d["model_type"] = i.model_type;
  nb::list sections;
  for (const auto& s : i.sections) {
    nb::dict e;
    e["name"] = s.name;
    e["type"] = s.type;
    e["offset"] = s.offset;
    e["size"] = s.size;
    sections.append(e);
  }
  d["sections"] = sections;
  return d;
}

}  // namespace

void bind_batch_numpy(nb::class_<PyTokenizer>& cls);
void bind_hf_surface(nb::module_& m, nb::class_<PyTokenizer>& cls);

// The acceleration sections of .mtok bytes that lack them (for the writer).
nb::list AccelSections(nb::bytes data) {
  std::unique_ptr<Tokenizer> t;
  std::vector<std::pair<uint32_t, std::string>> sections;
  mtok::Status st;
  {
    nb::gil_scoped_release release;
    st = Tokenizer::Load(mtok::Buffer::Copy(data.c_str(), data.size()), &t);
    if (st.ok()) t->AccelSections(&sections);
  }
  mtok_py::Check(st);
  nb::list out;
  for (const auto& [tag, payload] : sections)
    out.append(nb::make_tuple(tag, nb::bytes(payload.data(), payload.size())));
  return out;
}

void bind_tokenizer(nb::module_& m) {
  m.attr("SPLIT_MIN_BYTES") = mtok::EncodeOptions::kSplitMinBytes;  // split from here with cold pool caches
  m.attr("SPLIT_MIN_BYTES_WARM") = mtok::EncodeOptions::kSplitMinBytesWarm;  // texts shorter stay on one thread
  m.def("piece_cache_bound", &mtok::PieceCacheBound, "bytes each thread's pre-token cache may use, per tokenizer");
  m.def("set_piece_cache_bound", &mtok::SetPieceCacheBound, nb::arg("bytes"));
  m.def("accel_sections", &AccelSections, nb::arg("data"),
        "Lookup tables to store in a .mtok file: [(tag, payload)].");
  nb::enum_<Added>(m, "AddedTokens", "Which added tokens an encode matches in the text.")
      .value("ALL", Added::kAll, "every added token")
      .value("NONE", Added::kNone, "none: their text is ordinary text")
      .value("ALLOWED", Added::kAllowed, "only those in allowed_ids");
  auto cls = nb::class_<PyTokenizer>(m, "Tokenizer");
  cls.def_static("from_bytes",
                 [](nb::bytes data) { return Load(mtok::Buffer::Copy(data.c_str(), data.size())); },
                 nb::arg("data"), "Loads a tokenizer from .mtok bytes (copied).")
      .def_static("from_file",
                  [](const std::string& path) {
                    std::shared_ptr<const mtok::Buffer> buf;
                    mtok_py::Check(mtok::Buffer::MapFile(path, &buf));
                    return Load(std::move(buf));
                  },
                  nb::arg("path"), "Maps a .mtok file and loads it (zero copy).")
      .def("encode", &EncodeIds, nb::arg("text"), nb::arg("add_special_tokens"),
           nb::arg("added_mode") = Added::kAll, nb::arg("allowed_ids") = std::vector<uint32_t>(),
           nb::arg("threads") = 1, "Ids of a str or UTF-8 bytes; a long text on up to `threads` threads.")
      .def("encode_numpy", &EncodeIdsNumpy, nb::arg("text"), nb::arg("add_special_tokens"),
           nb::arg("added_mode") = Added::kAll, nb::arg("allowed_ids") = std::vector<uint32_t>(),
           nb::arg("threads") = 1, "encode()'s ids as a 1-D uint32 numpy array that owns them.")
      .def("encode_full", &EncodeFull, nb::arg("text"), nb::arg("pair").none(),
           nb::arg("add_special_tokens"), nb::arg("config").none(), nb::arg("details"),
           nb::arg("added_mode") = Added::kAll, nb::arg("allowed_ids") = std::vector<uint32_t>(),
           "An Encoding, with truncation and padding from config.")
      .def("encode_full_ids", &EncodeFullIds, nb::arg("text"), nb::arg("pair").none(),
           nb::arg("add_special_tokens"), nb::arg("config").none(),
           "encode_full's ids alone, as a list (no Encoding is made for Python).")
      .def("encode_batch", &EncodeBatchIds, nb::arg("texts"), nb::arg("pairs").none(),
           nb::arg("add_special_tokens"), nb::arg("config").none(), nb::arg("threads"),
           nb::arg("added_mode") = Added::kAll, nb::arg("allowed_ids") = std::vector<uint32_t>(),
           "Ids of many texts on native threads, the GIL released once.")
      .def("encode_batch_full", &EncodeBatchFull, nb::arg("texts"), nb::arg("pairs").none(),
           nb::arg("add_special_tokens"), nb::arg("config").none(), nb::arg("threads"),
           "Encodings of many texts on native threads, the GIL released once.")
      .def("decode",
           [](const PyTokenizer& self, const std::vector<uint32_t>& ids, bool skip_special) {
             std::string s;
             {
               nb::gil_scoped_release release;
               s = self.tok->Decode(ids.data(), ids.size(), skip_special);
             }
             return s;
           },
           nb::arg("ids"), nb::arg("skip_special_tokens"))
      .def("decode_batch",
           [](const PyTokenizer& self, const std::vector<std::vector<uint32_t>>& batch,
              bool skip_special, int threads) {
             std::vector<std::string> out;
             {
               nb::gil_scoped_release release;
               out = self.tok->DecodeBatch(batch, skip_special, threads);
             }
             return out;
           },
           nb::arg("batch"), nb::arg("skip_special_tokens"), nb::arg("threads"))
      .def("decode_bytes_batch",
           [](const PyTokenizer& self, const std::vector<std::vector<uint32_t>>& batch,
              int threads) {
             std::vector<std::string> out;
             uint32_t bad = 0;
             bool ok;
             {
               nb::gil_scoped_release release;
               ok = self.tok->DecodeBytesBatch(batch, threads, &out, &bad);
             }
             if (!ok) throw nb::key_error(std::to_string(bad).c_str());
             nb::list result;
             for (const std::string& b : out) result.append(nb::bytes(b.data(), b.size()));
             return result;
           },
           nb::arg("batch"), nb::arg("threads"),
           "Raw bytes of many id lists (byte-level BPE), the GIL released once; KeyError for an "
           "id that is no token.")
      .def("id_to_token",
           [](const PyTokenizer& self, uint32_t id) -> nb::object {
             std::string t;
             if (!self.tok->IdToToken(id, &t)) return nb::none();
             return nb::str(t.data(), t.size());
           })
      .def("token_to_id",
           [](const PyTokenizer& self, std::string_view token) -> nb::object {
             uint32_t id;
             if (!self.tok->TokenToId(token, &id)) return nb::none();
             return nb::int_(id);
           })
      .def("vocab_size", [](const PyTokenizer& self, bool with_added) {
        return self.tok->VocabSize(with_added);
      })
      .def("is_special", [](const PyTokenizer& self, uint32_t id) { return self.tok->IsSpecial(id); })
      .def("num_special_tokens_to_add",
           [](const PyTokenizer& self, bool pair) { return self.tok->NumSpecialTokensToAdd(pair); })
      .def("info", &Info)
      .def("runtime_info", [](const PyTokenizer& self) {
        std::vector<std::pair<std::string, std::string>> facts;
        self.tok->RuntimeInfo(&facts);
        nb::dict out;
        for (auto& [k, v] : facts) out[nb::str(k.c_str())] = nb::str(v.c_str());
        return out;
      })
      .def("to_bytes", [](const PyTokenizer& self) {
        const mtok::Buffer& b = self.tok->bytes();
        return nb::bytes(reinterpret_cast<const char*>(b.data()), b.size());
      });
  bind_batch_numpy(cls);
  bind_hf_surface(m, cls);
}
