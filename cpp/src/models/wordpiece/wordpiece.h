// WordPiece (HF semantics): greedy longest-match-first over each word, with
// the continuing-subword prefix on non-initial pieces; a word that cannot be
// spelled, or is longer than max_input_chars_per_word, becomes the unk token.
#pragma once
#include <memory>
#include <mutex>
#include <string>

#include "models/vocab.h"
#include "models/wordpiece/wordpiece_trie.h"
#include "pipeline.h"

namespace mtok {

struct WordPieceOptions {
  uint32_t unk_id = 0;
  std::string continuing_subword_prefix = "##";
  uint32_t max_input_chars_per_word = 100;
};

// The greedy split of one word, over a trie of the vocab (the model and the
// WordPiece ids route share it).
class WordPiece {
 public:
  // `trie`: one adopted from the file (WTRI), or empty to build it at the
  // first word.
  WordPiece(const Vocab& vocab, WordPieceOptions options, WordPieceTrie trie = {});
  // Appends the ids of `word`.
  void AppendIds(std::string_view word, std::vector<uint32_t>* ids) const;
  // The same with each token's byte range in `word`.
  void Tokenize(std::string_view word, std::vector<Token>* out) const;
  bool trie_mapped() const { return mapped_; }
  // WTRI of the trie (made now if it was not yet).
  std::string TriePayload() const { return Trie().Payload(); }

 private:
  // Calls emit(id, begin, end) for each piece; false (after some calls)
  // when the word cannot be spelled.
  template <typename Emit>
  bool Split(std::string_view word, Emit emit) const;

  // The trie: the file's, or made at the first word (building it costs
  // about as much as reading the vocab, which a load need not pay).
  const WordPieceTrie& Trie() const;

  const Vocab& vocab_;  // the model's, which outlives this
  WordPieceOptions opt_;
  const bool mapped_;  // trie_ came from the file: Trie() builds nothing
  mutable std::once_flag made_;
  mutable std::unique_ptr<WordPieceTrie> trie_;
  mutable uint32_t continuing_ = WordPieceTrie::kNone;  // the node of the prefix
};

std::unique_ptr<Model> MakeWordPieceModel(Vocab vocab, WordPieceOptions options, WordPieceTrie trie = {});

// The greedy splitter of a WordPiece model, or null for another model.
const WordPiece* WordPieceOf(const Model& model);

}  // namespace mtok
