// Type codes and tags of the .mtok format (docs/format.md). The Python writer
// keeps its own copy in src/mtok/format/codes.py; tests/format/test_codes.py
// checks that the two agree.
#pragma once
#include <cstdint>

namespace mtok::codes {

constexpr int kMagic = 430;
constexpr int kPipelineType = 4;
constexpr char kExtMagic[8] = {'M', 'T', 'O', 'K', 'E', 'X', 'T', '1'};
// The last 16 bytes of a file with a trailer: [u64 trailer offset] "MTOKEND1".
constexpr char kEndMagic[8] = {'M', 'T', 'O', 'K', 'E', 'N', 'D', '1'};
constexpr int kMaxNesting = 16;  // Sequence depth limit (hostile files)

namespace norm {
constexpr uint8_t kNone = 0, kNfkc = 1, kPrepend = 2, kReplace = 3, kSequence = 4,
                  kBert = 5, kNfkcTable = 6, kBertNfdTable = 7, kStrip = 8;
// mtok extensions
constexpr uint8_t kUnicodeForm = 64, kLowercase = 65, kStripAccents = 66,
                  kReplaceRegex = 67, kPrecompiled = 68, kBertExact = 69,
                  kSpmWhitespace = 70;
}  // namespace norm

namespace pre {
constexpr uint8_t kNone = 0, kByteLevel = 1, kDigits = 2, kMetaspace = 3, kSplit = 4,
                  kBert = 5, kSequence = 6;
constexpr uint8_t kByteLevelFull = 64, kSplitFull = 65, kMetaspaceFull = 66,
                  kWhitespaceSplit = 67, kWhitespace = 68, kPunctuation = 69,
                  kCharDelimiter = 70, kUnicodeScripts = 71;
}  // namespace pre

// Split behaviours of the extension Split (the seed's Split uses 0 Isolated,
// 1 Removed, 2 MergedWithPrevious).
namespace behavior {
constexpr uint8_t kRemoved = 0, kIsolated = 1, kMergedWithPrevious = 2,
                  kMergedWithNext = 3, kContiguous = 4;
}

// Pattern kinds of the extension Split.
namespace pattern {
constexpr uint8_t kLiteral = 0, kOniguruma = 1, kRust = 2;
}

namespace model {
constexpr uint8_t kBpe = 0, kWordPiece = 1, kUnigram = 2;
constexpr uint8_t kBpeFull = 64, kWordPieceFull = 65, kUnigramFull = 66, kSentencePieceBpe = 67;
// kBpeFull flag bits
constexpr uint8_t kBpeIgnoreMerges = 1, kBpeFuseUnk = 2, kBpeRankMerges = 4, kBpeHasUnk = 8;
// kUnigramFull / kSentencePieceBpe flag bits
constexpr uint8_t kPieceByteFallback = 1, kPieceHasUnk = 2, kPieceSentencePiece = 4;
}  // namespace model

namespace dec {
constexpr uint8_t kByteLevel = 0, kByteFallback = 1, kMetaspace = 2, kWordPiece = 3,
                  kFuse = 4, kReplace = 5, kStrip = 6, kSequence = 7;
constexpr uint8_t kNone = 64, kMetaspaceFull = 65, kReplaceRegex = 66, kCtc = 67,
                  kBpeSuffix = 68, kSentencePiece = 69;
}  // namespace dec

namespace post {
constexpr uint8_t kNone = 0, kTemplate = 1, kBert = 2, kRoberta = 3, kByteLevel = 4,
                  kSequence = 5;
// Template items
constexpr uint8_t kItemA = 0, kItemB = 1, kItemSpecial = 2;
// MNN's single-sequence program after BOS
constexpr uint8_t kOpSequenceA = 0, kOpSpecialToken = 1;
}  // namespace post

// Extension trailer section tags (4 ASCII bytes, read as little-endian u32).
constexpr uint32_t Tag(const char (&s)[5]) {
  return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 |
         uint32_t(uint8_t(s[2])) << 16 | uint32_t(uint8_t(s[3])) << 24;
}
namespace tag {
constexpr uint32_t kAddedFlags = Tag("ATFL");  // per added token: single_word, normalized
constexpr uint32_t kPost = Tag("POST");        // full post-processor
constexpr uint32_t kTemplates = Tag("TMPL");   // named chat templates (JSON)
// Acceleration sections: tables precomputed at export and used in place.
constexpr uint32_t kVocabOffsets = Tag("VOFF");  // id -> offset of its vocab record
constexpr uint32_t kVocabIndex = Tag("VHSH");  // token string -> id index of the model vocab
constexpr uint32_t kPairIndex = Tag("PHSH");   // BPE (left, right) -> (rank, merged id)
constexpr uint32_t kPairFilter = Tag("PFLT");  // byte-level BPE: Bloom filter of the merge pairs
constexpr uint32_t kRawBytes = Tag("BRAW");    // byte-level BPE: raw bytes of every token
constexpr uint32_t kRawIndex = Tag("BHSH");    // byte-level BPE: raw bytes -> id index
constexpr uint32_t kRawTags = Tag("BTAG");     // byte-level BPE: a hash byte per BHSH slot
constexpr uint32_t kTokenSpans = Tag("BSPN");  // byte-level BPE: where a piece may be cut (token_spans.h)
constexpr uint32_t kShortTokens = Tag("BSHT");  // byte-level BPE: tokens of up to 8 bytes (short_tokens.h)
constexpr uint32_t kCharFold = Tag("BFLD");    // byte-level BPE: characters that start as one token
constexpr uint32_t kCharFoldInContext = Tag("BFLC");  // byte-level BPE: ... unless given neighbours are beside them
constexpr uint32_t kWholeTokens = Tag("BWHL"); // byte-level BPE: tokens that merge into themselves
constexpr uint32_t kUnigramTrie = Tag("UTRI");  // Unigram: the lattice's bitmap trie
constexpr uint32_t kWordPieceTrie = Tag("WTRI");  // WordPiece: the byte trie of the vocab
constexpr uint32_t kBpeBoundaries = Tag("BBND");  // SentencePiece-style BPE: where merges never reach across
constexpr bool IsAccel(uint32_t t) {
  return t == kVocabOffsets || t == kVocabIndex || t == kPairIndex || t == kPairFilter || t == kRawBytes || t == kRawIndex || t == kRawTags || t == kTokenSpans || t == kShortTokens ||
         t == kUnigramTrie || t == kWordPieceTrie || t == kBpeBoundaries;
}
constexpr uint32_t kOffsetTrim = Tag("OFFS");    // post-processor trim_offsets
constexpr uint32_t kTruncation = Tag("TRUN");    // truncation applied by default (tokenizer.json)
constexpr uint32_t kPadding = Tag("PADS");       // padding applied by default (tokenizer.json)
}  // namespace tag

}  // namespace mtok::codes
