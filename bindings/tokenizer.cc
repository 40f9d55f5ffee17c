// mtok._native.Tokenizer: a thin handle over the immutable C++ tokenizer.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <thread>

#include "common/utf8.h"
#include "errors.h"
#include "mtok/tokenizer.h"
#include "processors/template.h"

namespace nb = nanobind;
using mtok::Tokenizer;

namespace {

struct PyTokenizer {
  std::unique_ptr<Tokenizer> tok;
};

PyTokenizer* Load(std::shared_ptr<const mtok::Buffer> buf) {
  std::unique_ptr<Tokenizer> t;
  mtok::Status st;
  {
    nb::gil_scoped_release release;
    st = Tokenizer::Load(std::move(buf), &t);
  }
  mtok_py::Check(st);
  return new PyTokenizer{std::move(t)};
}

std::string_view ViewOf(const nb::bytes& b) { return std::string_view(b.c_str(), b.size()); }

// added_mode: 0 = match every added token, 1 = none, 2 = only allowed_ids.
mtok::EncodeOptions Options(bool add_special, int added_mode, std::vector<uint32_t> allowed_ids) {
  mtok::EncodeOptions o;
  o.add_special_tokens = add_special;
  if (added_mode < 0 || added_mode > 2) throw nb::value_error("added_mode must be 0, 1 or 2");
  o.added = static_cast<mtok::EncodeOptions::Added>(added_mode);
  o.allowed_ids = std::move(allowed_ids);
  return o;
}

std::vector<uint32_t> EncodeView(const PyTokenizer& self, std::string_view s,
                                 const mtok::EncodeOptions& opt) {
  std::vector<uint32_t> ids;
  mtok::Status st;
  {
    nb::gil_scoped_release release;
    st = self.tok->EncodeIds(s, opt, &ids);
  }
  mtok_py::Check(st);
  return ids;
}

std::vector<uint32_t> EncodeBytes(const PyTokenizer& self, nb::bytes data, bool add_special,
                                  int added_mode, std::vector<uint32_t> allowed_ids) {
  std::string_view s = ViewOf(data);
  size_t bad;
  if (!mtok::utf8::validate(s, &bad))
    mtok_py::RaiseEncodeError("input is not valid UTF-8 (first bad byte at offset " +
                              std::to_string(bad) + ")");
  return EncodeView(self, s, Options(add_special, added_mode, std::move(allowed_ids)));
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
  d["named_templates_json"] = nb::str(i.named_templates_json.data(), i.named_templates_json.size());
  d["flags"] = i.flags;
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

// Encodes texts on `threads` native threads with the GIL released once.
std::vector<std::vector<uint32_t>> EncodeBatch(const PyTokenizer& self,
                                               const std::vector<std::string>& texts,
                                               bool add_special, int threads, int added_mode,
                                               std::vector<uint32_t> allowed_ids) {
  mtok::EncodeOptions opt = Options(add_special, added_mode, std::move(allowed_ids));
  std::vector<std::vector<uint32_t>> out(texts.size());
  std::vector<mtok::Status> errors(texts.size());
  {
    nb::gil_scoped_release release;
    size_t n = texts.size();
    int workers = std::max(1, std::min<int>(threads, static_cast<int>(n)));
    auto work = [&](int w) {
      for (size_t i = w; i < n; i += workers) {
        errors[i] = self.tok->EncodeIds(texts[i], opt, &out[i]);
      }
    };
    std::vector<std::thread> pool;
    for (int w = 1; w < workers; ++w) pool.emplace_back(work, w);
    work(0);
    for (auto& t : pool) t.join();
  }
  for (const auto& st : errors) mtok_py::Check(st);
  return out;
}

}  // namespace

void bind_tokenizer(nb::module_& m) {
  nb::class_<PyTokenizer>(m, "Tokenizer")
      .def_static("from_bytes",
                  [](nb::bytes data) {
                    return Load(mtok::Buffer::Copy(data.c_str(), data.size()));
                  },
                  nb::arg("data"), "Loads a tokenizer from .mtok bytes (copied).")
      .def_static("from_file",
                  [](const std::string& path) {
                    std::shared_ptr<const mtok::Buffer> buf;
                    mtok_py::Check(mtok::Buffer::MapFile(path, &buf));
                    return Load(std::move(buf));
                  },
                  nb::arg("path"), "Maps a .mtok file and loads it (zero copy).")
      .def("encode",
           [](const PyTokenizer& self, std::string_view text, bool add_special, int added_mode,
              std::vector<uint32_t> allowed_ids) {
             return EncodeView(self, text, Options(add_special, added_mode, std::move(allowed_ids)));
           },
           nb::arg("text"), nb::arg("add_special_tokens"), nb::arg("added_mode") = 0,
           nb::arg("allowed_ids") = std::vector<uint32_t>())
      .def("encode_bytes", &EncodeBytes, nb::arg("data"), nb::arg("add_special_tokens"),
           nb::arg("added_mode") = 0, nb::arg("allowed_ids") = std::vector<uint32_t>())
      .def("encode_batch", &EncodeBatch, nb::arg("texts"), nb::arg("add_special_tokens"),
           nb::arg("threads"), nb::arg("added_mode") = 0,
           nb::arg("allowed_ids") = std::vector<uint32_t>())
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
      .def("info", &Info)
      .def("to_bytes", [](const PyTokenizer& self) {
        const mtok::Buffer& b = self.tok->bytes();
        return nb::bytes(reinterpret_cast<const char*>(b.data()), b.size());
      });
}
