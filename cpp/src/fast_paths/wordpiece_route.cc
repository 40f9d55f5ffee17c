#include "fast_paths/wordpiece_route.h"

#include <algorithm>
#include <cstring>

#include "common/scratch.h"
#include "fast_paths/bert_ascii_block.h"
#include "common/utf8.h"
#include "fast_paths/piece_cache.h"
#include "models/wordpiece/wordpiece.h"

namespace mtok {

namespace {

// A word: a byte range of the normalized text.
struct WordSpan {
  size_t begin, end;
};

// The normalized bytes of the words not yet looked up, per thread.
struct WordBytes {
  std::unique_ptr<char[]> data;
  size_t cap = 0;
};

constexpr size_t kNoWord = SIZE_MAX;
constexpr size_t kSpanCap = 512;
// A chunk of input bytes between capacity checks, and what it may add at
// most: one code point of n bytes gives at most 13 normalized bytes and as
// many words, under 7 per input byte.
constexpr size_t kChunk = 32;
constexpr size_t kChunkGrowth = 7 * kChunk;
constexpr size_t kPad = 16;  // zero bytes after the words: cache keys load 16 at once

}  // namespace

// The word builder of one Encode: normalized bytes go to `bytes`, each
// finished word to `spans`; the spans are looked up a batch at a time.
class WordPieceRoute::Words {
 public:
  Words(const WordPieceRoute& r, WordBytes& buf, PieceCache& cache, std::vector<uint32_t>* ids)
      : r_(r), buf_(buf), cache_(cache), ids_(ids) {}

  void Scan(const char* p, const char* const end) {
    const uint8_t* kind = r_.ascii_kind_;
    while (p < end) {
      Room(kChunkGrowth, kChunkGrowth);
      const char* const stop = p + std::min<size_t>(kChunk, static_cast<size_t>(end - p));
#ifdef MTOK_BERT_ASCII_BLOCKS
      if (r_.blocks_) {
        for (size_t taken = 16; taken == 16 && stop - p >= 16; p += taken) taken = Block(p);
      }
#endif
      while (p < stop) {
        uint8_t b = static_cast<uint8_t>(*p);
        switch (kind[b]) {
          case kWordByte: {
            // Locals: stores through a char pointer could alias the members.
            char* const out = buf_.data.get();
            size_t pos = pos_;
            if (word_ == kNoWord) word_ = pos;
            do {
              out[pos++] = r_.ascii_out_[b];
              if (++p == stop) break;
              b = static_cast<uint8_t>(*p);
            } while (kind[b] == kWordByte);
            pos_ = pos;
            break;
          }
          case kSpace:
            EndWord();
            ++p;
            break;
          case kAlone:
            Alone(&r_.ascii_out_[b], 1);
            ++p;
            break;
          case kDropped:
            ++p;
            break;
          default:
            p = Utf8Char(p, stop, end);
        }
      }
    }
  }

  void Finish() {
    EndWord();
    Flush();
  }

 private:
#ifdef MTOK_BERT_ASCII_BLOCKS
  // The 16 bytes at p through the block classes, up to the first one the
  // scalar loop must see (a control byte, a non-ASCII one: accented
  // letters inside Latin text); returns how many were taken, 0 when fewer
  // than kMinBlockBytes would be (a block's fixed cost for a few bytes;
  // 8 was not compared with other values).
  static constexpr unsigned kMinBlockBytes = 8;
  size_t Block(const char* p) {
    bert_ascii::Masks m;
    const size_t base = pos_;
    const unsigned good = bert_ascii::Classify(p, r_.lowercase_, kMinBlockBytes, buf_.data.get() + base, &m);
    if (good < kMinBlockBytes) return 0;
    const uint32_t taken = (1u << good) - 1;
    m.word &= taken;
    m.punct &= taken;
    pos_ = base + good;  // every byte taken is kept; white space is just in no span
    const uint32_t open = word_ != kNoWord;
    const uint32_t before = (m.word << 1) | open;  // bit i: byte i - 1 was in a word
    // Where spans start and end (a punctuation byte is a span of its own):
    // spans do not overlap, so the k-th start and the k-th end make a
    // span, after the word left open by the last block takes the first
    // end. Paired so, a span costs no branch on what kind of bit comes
    // next (one per bit before, and words and punctuation take turns).
    uint32_t starts = (m.word & ~before) | m.punct;
    uint32_t ends = (~m.word & before & taken) | (m.punct << 1);
    if (open && ends != 0) {
      spans_[n_++] = {word_, base + static_cast<size_t>(__builtin_ctz(ends))};
      ends &= ends - 1;
      word_ = kNoWord;
    }
    while (starts != 0) {
      const size_t at = base + static_cast<size_t>(__builtin_ctz(starts));
      starts &= starts - 1;
      if (ends == 0) {  // the last word runs on into the next block
        word_ = at;
        break;
      }
      spans_[n_++] = {at, base + static_cast<size_t>(__builtin_ctz(ends))};
      ends &= ends - 1;
    }
    return good;
  }
#endif

  // Makes room for `bytes` more normalized bytes and `words` more spans.
  void Room(size_t bytes, size_t words) {
    if (n_ + words > kSpanCap) Flush();
    if (pos_ + bytes + kPad > buf_.cap) {
      const size_t cap = std::max(2 * buf_.cap, pos_ + bytes + kPad + 4096);
      std::unique_ptr<char[]> bigger(new char[cap]);
      if (pos_) std::memcpy(bigger.get(), buf_.data.get(), pos_);
      buf_.data = std::move(bigger);
      buf_.cap = cap;
    }
  }

  void Append(const char* s, size_t n) {
    if (word_ == kNoWord) word_ = pos_;
    std::memcpy(buf_.data.get() + pos_, s, n);
    pos_ += n;
  }
  // The same for n <= 13 bytes at s, which may be read 16 bytes long (an
  // entry's text): one fixed copy instead of a call. Room for it was made
  // with the chunk's.
  void Append16(const char* s, size_t n) {
    if (word_ == kNoWord) word_ = pos_;
    std::memcpy(buf_.data.get() + pos_, s, 16);
    pos_ += n;
  }
  void EndWord() {
    if (word_ == kNoWord) return;
    spans_[n_++] = {word_, pos_};
    word_ = kNoWord;
  }
  // A word of its own: punctuation, a CJK character.
  void Alone(const char* s, size_t n) {
    EndWord();
    spans_[n_++] = {pos_, pos_ + n};
    std::memcpy(buf_.data.get() + pos_, s, n);
    pos_ += n;
  }
  // A normalized character, by the pre-tokenizer's classes.
  void Char(char32_t c) {
    char bytes[4];
    const size_t n = Utf8(c, bytes);
    Room(n, 2);
    if (BertCodePoints::IsSpace(c)) EndWord();
    else if (BertCodePoints::IsPunctuation(c)) Alone(bytes, n);
    else Append(bytes, n);
  }
  static size_t Utf8(char32_t c, char* out) {
    std::string s;
    utf8::append(s, c);
    std::memcpy(out, s.data(), s.size());
    return s.size();
  }

  // The two- or three-byte code point at p into *cp, returning its
  // length; 0 for any other (ASCII, four bytes, or not valid UTF-8).
  static size_t TwoOrThree(const char* p, const char* end, char32_t* cp) {
    const auto* u = reinterpret_cast<const uint8_t*>(p);
    const size_t left = static_cast<size_t>(end - p);
    if ((u[0] & 0xE0) == 0xC0 && left >= 2 && (u[1] & 0xC0) == 0x80) {
      *cp = (char32_t(u[0] & 0x1F) << 6) | (u[1] & 0x3F);
      return 2;
    }
    if ((u[0] & 0xF0) == 0xE0 && left >= 3 && (u[1] & 0xC0) == 0x80 && (u[2] & 0xC0) == 0x80) {
      *cp = (char32_t(u[0] & 0x0F) << 12) | (char32_t(u[1] & 0x3F) << 6) | (u[2] & 0x3F);
      return 3;
    }
    return 0;
  }

  // The code point at p (not ASCII); returns where the next one starts.
  // Two- and three-byte characters that continue a word or stand alone
  // (most of every script) inline; the rest through NonAscii. A word's
  // letters after its first go through AppendRun, up to `stop`.
  [[gnu::always_inline]] const char* Utf8Char(const char* p, const char* stop, const char* end) {
    char32_t cp;
    const size_t len = TwoOrThree(p, end, &cp);
    if (len == 0) return NonAscii(p, end);
    const BertCodePoints::Entry& e = r_.cps_.At(cp);
    if (e.kind == BertCodePoints::kAppend) {
      if (e.len) Append16(e.out, e.len);
      if (word_ != kNoWord) return AppendRun(p + len, stop, end);
    } else if (e.kind == BertCodePoints::kIsolate) {
      EndWord();
      spans_[n_++] = {pos_, pos_ + e.len};
      Append16(e.out, e.len);
      word_ = kNoWord;
    } else {
      return NonAscii(p, end);
    }
    return p + len;
  }

  // The characters from p that continue the open word, those that start
  // before `stop`: ASCII word bytes and two- and three-byte letters (most
  // scripts', and the accented letters inside Latin words) in one loop,
  // with the output position in a local (through the members, each copy
  // made the compiler load the buffer and the position again). Returns
  // where it stopped.
  const char* AppendRun(const char* p, const char* stop, const char* end) {
    const uint8_t* kind = r_.ascii_kind_;
    char* const out = buf_.data.get();
    size_t pos = pos_;
    while (p < stop) {
      const auto b = static_cast<uint8_t>(*p);
      if (b < 0x80) {
        if (kind[b] != kWordByte) break;
        out[pos++] = r_.ascii_out_[b];
        ++p;
        continue;
      }
      char32_t cp;
      const size_t len = TwoOrThree(p, end, &cp);
      if (len == 0) break;
      const BertCodePoints::Entry& e = r_.cps_.At(cp);
      if (e.kind != BertCodePoints::kAppend) break;
      std::memcpy(out + pos, e.out, 16);  // Room made it, as for Append16
      pos += e.len;
      p += len;
    }
    pos_ = pos;
    return p;
  }

  [[gnu::noinline]] const char* NonAscii(const char* p, const char* end) {
    int len;
    const char32_t cp = utf8::decode(std::string_view(p, static_cast<size_t>(end - p)), 0, &len);
    const BertCodePoints::Entry& e = r_.cps_.At(cp);
    switch (e.kind) {
      case BertCodePoints::kAppend:
        if (e.len) Append16(e.out, e.len);
        break;
      case BertCodePoints::kBreak:
        EndWord();
        break;
      case BertCodePoints::kIsolate:
        Alone(e.out, e.len);
        break;
      case BertCodePoints::kMixed:
        for (size_t i = 0; i < e.len;) {
          int n;
          Char(utf8::decode(std::string_view(e.out, e.len), i, &n));
          i += static_cast<size_t>(n);
        }
        break;
      case BertCodePoints::kLong: {
        thread_local std::u32string chars;
        r_.cps_.Normalized(cp, &chars);
        for (char32_t c : chars) Char(c);
        break;
      }
      default:
        return Reordered(p, end);
    }
    return p + len;
  }

  // A code point with a surviving combining mark, and the code points after
  // it whose marks NFD may reorder with its: normalized together.
  const char* Reordered(const char* p, const char* end) {
    const char* q = p;
    for (bool first = true; q < end; first = false) {
      int len;
      const char32_t cp = utf8::decode(std::string_view(q, static_cast<size_t>(end - q)), 0, &len);
      if (!first && (cp < 0x80 || !r_.cps_.At(cp).leads_mark)) break;
      q += len;
    }
    thread_local std::string normalized;
    r_.normalizer_->NormalizeText(std::string_view(p, static_cast<size_t>(q - p)), &normalized);
    for (size_t i = 0; i < normalized.size();) {
      int n;
      Char(utf8::decode(normalized, i, &n));
      i += static_cast<size_t>(n);
    }
    TrimScratch(normalized);
    return q;
  }

  // Looks the finished words up, then keeps only the open word's bytes.
  void Flush() {
    char* const base = buf_.data.get();
    if (n_ > 0) {
      std::memset(base + pos_, 0, kPad);
      const std::string_view readable(base, pos_ + kPad);
      const WordPiece* wp = r_.wp_;
      auto split = [wp](std::string_view w, std::vector<uint32_t>* out) { wp->AppendIds(w, out); };
      constexpr size_t kBatch = 64;
      PieceCache::ShortKey keys[kBatch];
      for (size_t from = 0; from < n_; from += kBatch) {
        const size_t m = std::min(kBatch, n_ - from);
        const WordSpan* batch = spans_ + from;
        for (size_t k = 0; k < m; ++k) {
          const std::string_view w(base + batch[k].begin, batch[k].end - batch[k].begin);
          if (!PieceCache::IsShort(w)) continue;
          keys[k] = PieceCache::MakeShortWide(w);  // kPad bytes follow the last word
          cache_.Prefetch(keys[k]);
        }
        StagedIds<kBatch> staged(ids_);
        for (size_t k = 0; k < m; ++k) {
          const std::string_view w(base + batch[k].begin, batch[k].end - batch[k].begin);
          if (PieceCache::IsShort(w)) {
            CachedShortIds(cache_, staged, keys[k], w, split);
          } else {
            staged.Flush();
            CachedIds(cache_, w, readable, ids_, split);
          }
        }
        staged.Flush();
      }
      n_ = 0;
    }
    if (word_ == kNoWord) {
      pos_ = 0;
      return;
    }
    std::memmove(base, base + word_, pos_ - word_);
    pos_ -= word_;
    word_ = 0;
  }

  const WordPieceRoute& r_;
  WordBytes& buf_;
  PieceCache& cache_;
  std::vector<uint32_t>* ids_;
  size_t pos_ = 0;         // normalized bytes so far
  size_t word_ = kNoWord;  // where the open word starts
  size_t n_ = 0;           // finished words
  WordSpan spans_[kSpanCap];
};

WordPieceRoute::WordPieceRoute(BertOptions opt, const Normalizer* normalizer, const WordPiece* wp)
    : serial_(NewOwnerSerial()), normalizer_(normalizer), wp_(wp), cps_(opt) {
  // ASCII bytes from the code point entries: every shape a byte can have
  // is a single byte, a space, or nothing.
  for (int b = 0; b < 256; ++b) {
    ascii_kind_[b] = kNotAscii;
    if (b >= 0x80) continue;
    const BertCodePoints::Entry& e = cps_.At(static_cast<char32_t>(b));
    ascii_out_[b] = e.len ? e.out[0] : 0;
    switch (e.kind) {
      case BertCodePoints::kAppend: ascii_kind_[b] = e.len ? kWordByte : kDropped; break;
      case BertCodePoints::kBreak: ascii_kind_[b] = kSpace; break;
      case BertCodePoints::kIsolate: ascii_kind_[b] = kAlone; break;
      default: break;  // not a shape an ASCII byte has; the general case handles it
    }
    if ((ascii_kind_[b] == kWordByte || ascii_kind_[b] == kAlone) && e.len != 1) ascii_kind_[b] = kNotAscii;
  }
  // The block path classifies bytes itself: only when that is what this
  // table says for every byte it takes.
  lowercase_ = opt.normalizes && opt.lowercase;
  blocks_ = true;
  for (int b = 0; b < 0x80; ++b) {
    if (!bert_ascii::IsBlockByte(static_cast<uint8_t>(b))) continue;
    const bool alnum = (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
    const bool space = b == ' ' || b == '\t' || b == '\n' || b == '\r';
    const char lowered = lowercase_ && b >= 'A' && b <= 'Z' ? static_cast<char>(b + 32) : static_cast<char>(b);
    const bool agrees = alnum   ? ascii_kind_[b] == kWordByte && ascii_out_[b] == lowered
                        : space ? ascii_kind_[b] == kSpace
                                : ascii_kind_[b] == kAlone && ascii_out_[b] == static_cast<char>(b);
    blocks_ = blocks_ && agrees;
  }
}

std::unique_ptr<WordPieceRoute> WordPieceRoute::Make(const PipelineShape& shape, const Model& model) {
  const WordPiece* wp = WordPieceOf(model);
  const std::vector<PreTokenizerStage>& stages = shape.pre_tokenizer;
  if (stages.size() != 1 || !std::holds_alternative<BertPreTokenizerShape>(stages[0]) || wp == nullptr) {
    return nullptr;
  }
  BertOptions opt;
  const Normalizer* normalizer = nullptr;
  const std::vector<NormalizerStage>& ns = shape.normalizer;
  if (const auto* bert = ns.size() == 1 ? std::get_if<BertNormalizerShape>(&ns[0]) : nullptr) {
    normalizer = shape.fusable;
    opt.normalizes = true;
    opt.clean_text = bert->clean_text;
    opt.handle_chinese_chars = bert->handle_chinese_chars;
    opt.strip_accents = bert->strip_accents;
    opt.lowercase = bert->lowercase;
  }
  return std::unique_ptr<WordPieceRoute>(new WordPieceRoute(opt, normalizer, wp));
}

void WordPieceRoute::PrepareThread() const { PieceCache::ForThread(serial_); }

void WordPieceRoute::RuntimeInfo(std::vector<std::pair<std::string, std::string>>* out) const {
  PieceCache::ForThread(serial_).Describe(out);
}

void WordPieceRoute::Encode(std::string_view segment, bool /*at_input_start*/, std::vector<uint32_t>* ids) const {
  thread_local WordBytes buf;
  ids->reserve(ids->size() + segment.size() / 4 + 16);  // about one id per 4 bytes of text
  Words words(*this, buf, PieceCache::ForThread(serial_), ids);
  words.Scan(segment.data(), segment.data() + segment.size());
  words.Finish();
  if (buf.cap > kScratchKeepBytes) buf = WordBytes();
}

}  // namespace mtok
