// Batch encode and decode on the shared thread pool.
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
                                 std::vector<std::vector<uint32_t>>* out) const {
  if (opt.plain() && !pairs) {
    out->assign(n, {});
    std::vector<Status> errors(n);
    ThreadPool::Shared().ParallelFor(
        n, threads, [&](size_t i) { errors[i] = EncodeIds(texts[i], opt, &(*out)[i]); });
    for (const Status& st : errors) MTOK_RETURN_IF_ERROR(st);
    return Status::Ok();
  }
  std::vector<Encoding> encodings;
  MTOK_RETURN_IF_ERROR(EncodeBatch(texts, pairs, n, opt, threads, &encodings));
  out->resize(n);
  for (size_t i = 0; i < n; ++i) (*out)[i] = std::move(encodings[i].ids);
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
