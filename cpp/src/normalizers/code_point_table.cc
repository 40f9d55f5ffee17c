#include <algorithm>

#include "normalizers/char_map.h"
#include "normalizers/normalizers.h"

namespace mtok {
namespace {

// MNN's embedded normalization table (seed types 6/7): a sorted list of
// code point -> UTF-8 replacement, applied to each code point on its own.
class CodePointTableNormalizer : public Normalizer {
 public:
  explicit CodePointTableNormalizer(std::vector<std::pair<char32_t, std::string_view>> table)
      : table_(std::move(table)) {}
  void Normalize(Piece* p) const override {
    MapCodePoints(p, [this](char32_t cp, std::u32string* out) {
      auto it = std::lower_bound(table_.begin(), table_.end(), cp,
                                 [](const auto& e, char32_t c) { return e.first < c; });
      if (it == table_.end() || it->first != cp) {
        out->push_back(cp);
        return;
      }
      for (size_t i = 0; i < it->second.size();) {
        int len;
        out->push_back(utf8::decode(it->second, i, &len));
        i += len;
      }
    });
  }

 private:
  std::vector<std::pair<char32_t, std::string_view>> table_;  // views into the mapped file
};

}  // namespace

NormalizerPtr MakeCodePointTableNormalizer(std::vector<std::pair<char32_t, std::string_view>> table) {
  return std::make_unique<CodePointTableNormalizer>(std::move(table));
}

}  // namespace mtok
