#include "common/read_ahead.h"

#include <atomic>
#include <cstdint>

namespace mtok {

void ReadAhead(std::string_view region) {
  uint64_t sum = 0;
  for (size_t i = 0; i < region.size(); i += 64) sum += static_cast<unsigned char>(region[i]);
  // The sum is used, so the loads stay.
  static std::atomic<uint64_t> sink{0};
  sink.store(sum, std::memory_order_relaxed);
}

}  // namespace mtok
