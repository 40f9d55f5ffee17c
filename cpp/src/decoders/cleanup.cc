#include "decoders/cleanup.h"

#include <string_view>
#include <utility>

namespace mtok {

void CleanupTokenizationSpaces(std::string* s) {
  // Applied one after another, in HF's order.
  static const std::pair<std::string_view, std::string_view> kRules[] = {
      {" .", "."},   {" ?", "?"},   {" !", "!"},   {" ,", ","},
      {" ' ", "'"},  {" n't", "n't"}, {" 'm", "'m"}, {" do not", " don't"},
      {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"},
  };
  for (const auto& [from, to] : kRules) {
    size_t at = s->find(from);
    if (at == std::string::npos) continue;
    std::string out;
    size_t prev = 0;
    for (; at != std::string::npos; at = s->find(from, prev)) {
      out.append(*s, prev, at - prev).append(to);
      prev = at + from.size();
    }
    out.append(*s, prev, std::string::npos);
    s->swap(out);
  }
}

}  // namespace mtok
