// Unigram language model tokenization: the best-scoring segmentation by
// Viterbi over byte positions, with HF tokenizers' or SentencePiece's rules
// for unknown characters, byte fallback, piece types and score precision.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "models/piece_vocab.h"
#include "models/unigram/bitmap_trie.h"
#include "pipeline.h"

namespace mtok {

// The lattice's trie and unknown-character score: built from the pieces,
// or mapped from the file's UTRI section.
struct UnigramTrie {
  std::vector<TrieNode> built;
  const TrieNode* mapped = nullptr;  // into the file; null when built
  size_t mapped_count = 0;
  double unk_score = 0;
};

UnigramTrie BuildUnigramTrie(const std::vector<ScoredPiece>& pieces, bool sentencepiece);

// UTRI payload (docs/format.md): its 64-byte header, then the nodes; and
// its reader, which checks sizes (node contents are checked as they are
// walked).
std::string UnigramTrieHeader(size_t node_count, double unk_score);
std::string UnigramTriePayload(const std::vector<TrieNode>& nodes, double unk_score);
Status ParseUnigramTrie(std::string_view payload, UnigramTrie* out);

// `record_tail`: bytes after each vocab record's token in the file (id,
// score and, in code 66, the piece type), for the VOFF section.
std::unique_ptr<Model> MakeUnigramModel(Vocab vocab, PieceModelOptions options, UnigramTrie trie,
                                        size_t record_tail);

}  // namespace mtok
