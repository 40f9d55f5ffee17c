// Encoding: one text, or a batch on the shared thread pool. The ids are the
// whole text's: EncodeOptions' default truncation and padding are off, and
// the file's own settings (EncodeDefaults) are deliberately not applied.
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "capi/errors.h"
#include "capi/handles.h"
#include "common/utf8.h"

namespace mtok::capi {
namespace {

// MTOK_E_INVALID_UTF8 naming the first bad byte; `what` says which text.
int CheckUtf8(std::string_view text, const std::string& what) {
  size_t bad = 0;
  if (utf8::validate(text, &bad)) return MTOK_OK;
  return Fail(MTOK_E_INVALID_UTF8,
              what + " is not valid UTF-8 (first bad byte at offset " + std::to_string(bad) + ")");
}

EncodeOptions Options(int add_special_tokens) {
  EncodeOptions opt;
  opt.add_special_tokens = add_special_tokens != 0;
  return opt;
}

// num_threads <= 0: $MTOK_NUM_THREADS when it is a positive integer, else
// the number of CPUs (the Python package's default).
int Threads(int num_threads) {
  if (num_threads > 0) return num_threads;
  if (const char* env = std::getenv("MTOK_NUM_THREADS")) {
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && n > 0 && n <= 4096) return static_cast<int>(n);
  }
  const unsigned cpus = std::thread::hardware_concurrency();
  return cpus ? static_cast<int>(cpus) : 1;
}

}  // namespace
}  // namespace mtok::capi

using namespace mtok::capi;

extern "C" {

int mtok_encode(const mtok_tokenizer* tok, const char* text, size_t len, int add_special_tokens,
                uint32_t** ids, size_t* n_ids) {
  constexpr const char* fn = "mtok_encode";
  return Guard(fn, [&] {
    MTOK_CAPI_REQUIRE(tok);
    if (text == nullptr && len != 0) return NullArgument(fn, "text");
    MTOK_CAPI_REQUIRE(ids);
    MTOK_CAPI_REQUIRE(n_ids);
    const std::string_view view(len ? text : "", len);
    MTOK_RETURN_IF_C_ERROR(CheckUtf8(view, "mtok_encode: text"));
    std::vector<uint32_t> out;
    MTOK_RETURN_IF_C_ERROR(Check(tok->tok->EncodeIds(view, Options(add_special_tokens), &out)));
    return ReturnIds(out, ids, n_ids);
  });
}

int mtok_encode_batch(const mtok_tokenizer* tok, const char* const* texts, const size_t* lens, size_t n,
                      int add_special_tokens, int num_threads, uint32_t** ids, size_t** offsets) {
  constexpr const char* fn = "mtok_encode_batch";
  return Guard(fn, [&] {
    MTOK_CAPI_REQUIRE(tok);
    if (n != 0) {
      MTOK_CAPI_REQUIRE(texts);
      MTOK_CAPI_REQUIRE(lens);
    }
    MTOK_CAPI_REQUIRE(ids);
    MTOK_CAPI_REQUIRE(offsets);
    std::vector<std::string_view> views(n);
    for (size_t i = 0; i < n; ++i) {
      const std::string what = "mtok_encode_batch: texts[" + std::to_string(i) + "]";
      if (texts[i] == nullptr && lens[i] != 0) return Fail(MTOK_E_INVALID_ARGUMENT, what + " is NULL");
      views[i] = std::string_view(lens[i] ? texts[i] : "", lens[i]);
      MTOK_RETURN_IF_C_ERROR(CheckUtf8(views[i], what));
    }
    std::vector<std::vector<uint32_t>> rows;
    MTOK_RETURN_IF_C_ERROR(Check(tok->tok->EncodeBatchIds(views.data(), nullptr, n, Options(add_special_tokens),
                                                          Threads(num_threads), &rows)));
    size_t total = 0;
    for (const auto& row : rows) total += row.size();
    size_t* starts = static_cast<size_t*>(std::malloc((n + 1) * sizeof(size_t)));
    uint32_t* flat = static_cast<uint32_t*>(std::malloc(total ? total * sizeof(uint32_t) : 1));
    if (starts == nullptr || flat == nullptr) {
      std::free(starts);
      std::free(flat);
      return Fail(MTOK_E_NO_MEMORY, "mtok_encode_batch: out of memory for " + std::to_string(total) + " ids");
    }
    size_t at = 0;
    for (size_t i = 0; i < n; ++i) {
      starts[i] = at;
      if (!rows[i].empty()) std::memcpy(flat + at, rows[i].data(), rows[i].size() * sizeof(uint32_t));
      at += rows[i].size();
    }
    starts[n] = at;
    *ids = flat;
    *offsets = starts;
    return MTOK_OK;
  });
}

}  // extern "C"
