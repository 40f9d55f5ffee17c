#include "models/wordpiece/wordpiece.h"

#include "common/utf8.h"
#include "io/codes.h"
#include "io/slot_table.h"

namespace mtok {

WordPiece::WordPiece(const Vocab& vocab, WordPieceOptions options, WordPieceTrie trie)
    : vocab_(vocab), opt_(std::move(options)), mapped_(trie.mapped()) {
  if (mapped_) {
    trie_ = std::make_unique<WordPieceTrie>(std::move(trie));
    continuing_ = trie_->Walk(opt_.continuing_subword_prefix);
  }
}

const WordPieceTrie& WordPiece::Trie() const {
  if (!mapped_) {
    std::call_once(made_, [this] {
      trie_ = std::make_unique<WordPieceTrie>(vocab_);
      continuing_ = trie_->Walk(opt_.continuing_subword_prefix);
    });
  }
  return *trie_;
}

template <typename Emit>
bool WordPiece::Split(std::string_view word, Emit emit) const {
  const WordPieceTrie& trie = Trie();
  const size_t n = word.size();
  const auto* s = reinterpret_cast<const uint8_t*>(word.data());
  for (size_t start = 0; start < n;) {
    uint32_t node = start == 0 ? trie.root() : continuing_;
    if (node == WordPieceTrie::kNone) return false;
    // The longest token along the walk that ends on a character boundary.
    size_t end = start;
    uint32_t id = WordPieceTrie::kNone;
    for (size_t i = start; i < n; ++i) {
      node = trie.Child(node, s[i]);
      if (node == WordPieceTrie::kNone) break;
      const uint32_t t = trie.Token(node);
      if (t != WordPieceTrie::kNone && (i + 1 == n || (s[i + 1] & 0xC0) != 0x80)) {
        id = t;
        end = i + 1;
      }
    }
    if (id == WordPieceTrie::kNone) return false;
    emit(id, start, end);
    start = end;
  }
  return true;
}

void WordPiece::AppendIds(std::string_view word, std::vector<uint32_t>* ids) const {
  const size_t first = ids->size();
  if (utf8::count_chars(word) <= opt_.max_input_chars_per_word &&
      Split(word, [ids](uint32_t id, size_t, size_t) { ids->push_back(id); })) {
    return;
  }
  ids->resize(first);
  ids->push_back(opt_.unk_id);
}

void WordPiece::Tokenize(std::string_view word, std::vector<Token>* out) const {
  const size_t first = out->size();
  if (utf8::count_chars(word) <= opt_.max_input_chars_per_word &&
      Split(word, [out](uint32_t id, size_t b, size_t e) {
        out->push_back({id, static_cast<uint32_t>(b), static_cast<uint32_t>(e)});
      })) {
    return;
  }
  out->resize(first);
  out->push_back({opt_.unk_id, 0, static_cast<uint32_t>(word.size())});
}

namespace {

class WordPieceModel : public Model {
 public:
  WordPieceModel(Vocab vocab, WordPieceOptions opt, WordPieceTrie trie)
      : vocab_(std::move(vocab)), wp_(vocab_, std::move(opt), std::move(trie)) {}

  void Tokenize(const Piece& p, std::vector<Token>* out) const override { wp_.Tokenize(p.text, out); }
  void AppendIds(std::string_view text, std::vector<uint32_t>* ids) const override { wp_.AppendIds(text, ids); }
  std::string_view IdToToken(uint32_t id) const override { return vocab_.TokenText(id); }
  bool TokenToId(std::string_view token, uint32_t* id) const override {
    return vocab_.Find(token, id);
  }
  uint32_t VocabSize() const override { return vocab_.size(); }
  uint32_t IdLimit() const override { return vocab_.id_limit(); }
  const WordPiece& splitter() const { return wp_; }

  // For a model read from its records (not one adopted from a file's
  // sections): the vocab's records and index, and the trie.
  void AccelSections(const uint8_t* base,
                     std::vector<std::pair<uint32_t, std::string>>* out) const override {
    const std::vector<uint32_t>& v = vocab_.built_slots();
    std::string offsets = vocab_.RecordOffsetsPayload(base, 4);  // [u32 id]
    if (v.empty() || offsets.empty()) return;
    out->emplace_back(codes::tag::kVocabOffsets, std::move(offsets));
    out->emplace_back(codes::tag::kVocabIndex, SlotTablePayload(v.data(), v.size(), 1));
    out->emplace_back(codes::tag::kWordPieceTrie, wp_.TriePayload());
  }

  void RuntimeInfo(std::vector<std::pair<std::string, std::string>>* out) const override {
    out->emplace_back("wordpiece_trie", wp_.trie_mapped() ? "mapped from the file (WTRI)" : "built at the first word");
  }

 private:
  Vocab vocab_;
  WordPiece wp_;
};

}  // namespace

std::unique_ptr<Model> MakeWordPieceModel(Vocab vocab, WordPieceOptions options, WordPieceTrie trie) {
  return std::make_unique<WordPieceModel>(std::move(vocab), std::move(options), std::move(trie));
}

const WordPiece* WordPieceOf(const Model& model) {
  const auto* m = dynamic_cast<const WordPieceModel*>(&model);
  return m ? &m->splitter() : nullptr;
}

}  // namespace mtok
