#include <unordered_set>

#include "common/utf8.h"
#include "decoders/decoders.h"

namespace mtok {
namespace {

constexpr std::string_view kSpaceSymbol = "\xE2\x96\x81";

// Byte value of a "<0xXX>" piece, or -1.
int BytePiece(std::string_view t) {
  if (t.size() != 6 || t.substr(0, 3) != "<0x" || t[5] != '>') return -1;
  auto hex = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  int hi = hex(t[3]), lo = hex(t[4]);
  return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
}

// SentencePieceProcessor::Decode: control pieces vanish, the unk piece shows
// its surface, byte pieces are joined and read as UTF-8 (each invalid byte a
// U+FFFD), U+2581 becomes a space and the first piece loses its leading
// U+2581 (the dummy prefix).
class SentencePieceDecoder : public Decoder {
 public:
  explicit SentencePieceDecoder(SpmDecoderOptions opt) : opt_(std::move(opt)) {
    for (std::string_view c : opt_.control) control_.insert(c);
  }

  void Decode(std::vector<std::string>* tokens) const override {
    std::string text, bytes;
    bool is_bos_ws = true, bos_ws_seen = false;
    auto flush = [&] {
      for (size_t i = 0; i < bytes.size();) {
        int n = utf8::valid_seq_len(bytes, i);
        if (n == 0) {
          text.append("\xEF\xBF\xBD");
          i += 1;
        } else {
          text.append(bytes, i, n);
          i += n;
        }
      }
      bytes.clear();
    };
    for (const std::string& t : *tokens) {
      int b = opt_.byte_fallback ? BytePiece(t) : -1;
      if (b >= 0) {
        bytes.push_back(static_cast<char>(b));
        continue;
      }
      flush();
      if (bos_ws_seen || !text.empty()) is_bos_ws = false;
      bos_ws_seen = false;
      if (control_.count(t)) continue;
      if (t == opt_.unk_piece) {
        text.append(opt_.unk_surface);
        continue;
      }
      std::string_view piece = t;
      if (is_bos_ws && (opt_.add_dummy_prefix || opt_.remove_extra_whitespaces)) {
        if (piece.substr(0, kSpaceSymbol.size()) == kSpaceSymbol) {
          piece.remove_prefix(kSpaceSymbol.size());
          bos_ws_seen = !opt_.remove_extra_whitespaces;
        }
      }
      for (size_t at = piece.find(kSpaceSymbol); at != std::string_view::npos;
           at = piece.find(kSpaceSymbol)) {
        text.append(piece.substr(0, at)).push_back(' ');
        piece.remove_prefix(at + kSpaceSymbol.size());
      }
      text.append(piece);
    }
    flush();
    tokens->assign(1, std::move(text));
  }

 private:
  SpmDecoderOptions opt_;
  std::unordered_set<std::string_view> control_;
};

}  // namespace

DecoderPtr MakeSentencePieceDecoder(SpmDecoderOptions options) {
  return std::make_unique<SentencePieceDecoder>(std::move(options));
}

}  // namespace mtok
