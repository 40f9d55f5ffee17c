// Decoding to raw bytes (tiktoken's decode_bytes): no decoder chain and no
// lossy UTF-8 step, so the caller chooses how invalid UTF-8 is handled.
#include "common/thread_pool.h"
#include "decoders/decoders.h"
#include "tokenizer_impl.h"
#include "mtok/tokenizer.h"

namespace mtok {

bool Tokenizer::DecodeBytes(const uint32_t* ids, size_t n, std::string* out,
                            uint32_t* bad) const {
  for (size_t i = 0; i < n; ++i) {
    if (const AddedToken* t = f_->added->ById(ids[i])) {
      out->append(t->content);  // added tokens hold their text, not byte-level characters
      continue;
    }
    std::string_view token = f_->model->IdToToken(ids[i]);
    if (token.data() == nullptr) {
      *bad = ids[i];
      return false;
    }
    AppendByteLevelBytes(token, out);
  }
  return true;
}

bool Tokenizer::DecodeBytesBatch(const std::vector<std::vector<uint32_t>>& batch, int threads,
                                 std::vector<std::string>* out, uint32_t* bad) const {
  out->assign(batch.size(), std::string());
  std::vector<uint8_t> ok(batch.size(), 1);
  std::vector<uint32_t> bad_ids(batch.size(), 0);
  ThreadPool::Shared().ParallelFor(batch.size(), threads, [&](size_t i) {
    ok[i] = DecodeBytes(batch[i].data(), batch[i].size(), &(*out)[i], &bad_ids[i]);
  });
  for (size_t i = 0; i < batch.size(); ++i) {
    if (!ok[i]) {
      *bad = bad_ids[i];
      return false;
    }
  }
  return true;
}

}  // namespace mtok
