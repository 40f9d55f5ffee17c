// Batch encode and decode on the shared thread pool.
#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>

#include "common/thread_pool.h"
#include "encoding/encoding_ops.h"
#include "mtok/tokenizer.h"

namespace mtok {

Status Tokenizer::EncodeBatch(const std::string_view* texts, const std::string_view* pairs,
                              size_t n, const EncodeOptions& opt, int threads,
                              std::vector<Encoding>* out) const {
  out->assign(n, Encoding());
  std::vector<Status> errors(n);
  ThreadPool::Shared().ParallelFor(n, threads, [&](size_t i) {
    errors[i] = pairs ? EncodePair(texts[i], pairs[i], opt, &(*out)[i])
                      : Encode(texts[i], opt, &(*out)[i]);
  });
  for (const Status& st : errors) MTOK_RETURN_IF_ERROR(st);
  if (opt.padding.enabled) PadBatch(out, opt.padding);
  return Status::Ok();
}

Status Tokenizer::EncodeBatchIds(const std::string_view* texts, const std::string_view* pairs,
                                 size_t n, const EncodeOptions& opt, int threads,
                                 std::vector<std::vector<uint32_t>>* out,
                                 const std::function<void(size_t)>* ready) const {
  if (opt.plain() && !pairs) {
    out->assign(n, {});
    std::vector<Status> errors(n);
    // Done flags, and how far from 0 every item is done, as the calling
    // thread last saw it: between its own items it hands that prefix to
    // `ready` (with two threads, one converts while the other encodes).
    std::unique_ptr<std::atomic<bool>[]> done(new std::atomic<bool>[n]());
    size_t prefix = 0, handed = 0;
    const size_t step = std::max<size_t>(1, n / 16);  // ready() costs a lock (the GIL)
    const std::thread::id caller = std::this_thread::get_id();
    ThreadPool::Shared().ParallelFor(n, threads, [&](size_t i) {
      errors[i] = EncodeIds(texts[i], opt, &(*out)[i]);
      done[i].store(true, std::memory_order_release);
      if (ready == nullptr || std::this_thread::get_id() != caller) return;
      while (prefix < n && done[prefix].load(std::memory_order_acquire)) ++prefix;
      if (prefix >= handed + step) (*ready)(handed = prefix);
    });
    if (ready && handed < n) (*ready)(n);
    for (const Status& st : errors) MTOK_RETURN_IF_ERROR(st);
    return Status::Ok();
  }
  std::vector<Encoding> encodings;
  MTOK_RETURN_IF_ERROR(EncodeBatch(texts, pairs, n, opt, threads, &encodings));
  out->resize(n);
  for (size_t i = 0; i < n; ++i) (*out)[i] = std::move(encodings[i].ids);
  if (ready) (*ready)(n);
  return Status::Ok();
}

std::vector<std::string> Tokenizer::DecodeBatch(const std::vector<std::vector<uint32_t>>& batch,
                                                bool skip_special_tokens, int threads) const {
  std::vector<std::string> out(batch.size());
  ThreadPool::Shared().ParallelFor(batch.size(), threads, [&](size_t i) {
    out[i] = Decode(batch[i].data(), batch[i].size(), skip_special_tokens);
  });
  return out;
}

}  // namespace mtok
