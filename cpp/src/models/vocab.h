// A token vocabulary whose strings are views into the mapped .mtok bytes.
#pragma once
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mtok {

class Vocab {
 public:
  // Adds token -> id. Returns false when the id is already used.
  bool Add(std::string_view token, uint32_t id) {
    if (id >= by_id_.size()) by_id_.resize(id + 1);
    if (by_id_[id].data() != nullptr) return false;
    by_id_[id] = token;
    by_token_.emplace(token, id);
    ++count_;
    return true;
  }
  void Reserve(size_t n) {
    by_token_.reserve(n);
    by_id_.reserve(n);
  }
  bool Find(std::string_view token, uint32_t* id) const {
    auto it = by_token_.find(token);
    if (it == by_token_.end()) return false;
    *id = it->second;
    return true;
  }
  std::string_view Token(uint32_t id) const {
    return id < by_id_.size() ? by_id_[id] : std::string_view();
  }
  bool Has(uint32_t id) const { return id < by_id_.size() && by_id_[id].data() != nullptr; }
  uint32_t size() const { return count_; }
  uint32_t id_limit() const { return static_cast<uint32_t>(by_id_.size()); }

 private:
  std::unordered_map<std::string_view, uint32_t> by_token_;
  std::vector<std::string_view> by_id_;
  uint32_t count_ = 0;
};

}  // namespace mtok
