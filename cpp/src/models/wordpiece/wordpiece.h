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
  WordPiece(const Vocab& vocab, WordPieceOptions options);
  // Appends the ids of `word`.
  void AppendIds(std::string_view word, std::vector<uint32_t>* ids) const;
  // The same with each token's byte range in `word`.
  void Tokenize(std::string_view word, std::vector<Token>* out) const;

 private:
  // Calls emit(id, begin, end) for each piece; false (after some calls)
  // when the word cannot be spelled.
  template <typename Emit>
  bool Split(std::string_view word, Emit emit) const;

  // The trie, made at the first word: loading stays as fast as before
  // (building it costs about as much as reading the vocab).
  const WordPieceTrie& Trie() const;

  const Vocab& vocab_;  // the model's, which outlives this
  WordPieceOptions opt_;
  mutable std::once_flag made_;
  mutable std::unique_ptr<WordPieceTrie> trie_;
  mutable uint32_t continuing_ = WordPieceTrie::kNone;  // the node of the prefix
};

std::unique_ptr<Model> MakeWordPieceModel(Vocab vocab, WordPieceOptions options);

// The greedy splitter of a WordPiece model, or null for another model.
const WordPiece* WordPieceOf(const Model& model);

}  // namespace mtok
