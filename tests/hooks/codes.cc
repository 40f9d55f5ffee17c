// Exposes the C++ format constants so tests/format/test_codes.py can check
// them against the Python writer's (src/mtok/format/codes.py).
#include <nanobind/nanobind.h>

#include "io/codes.h"

namespace nb = nanobind;
namespace c = mtok::codes;

void bind_testing_codes(nb::module_& m) {
  m.def("format_codes", [] {
    nb::dict d;
    d["magic"] = c::kMagic;
    d["pipeline"] = c::kPipelineType;
    d["ext_magic"] = nb::bytes(c::kExtMagic, sizeof(c::kExtMagic));
    d["max_nesting"] = c::kMaxNesting;
    const std::pair<const char*, int> all[] = {
        {"norm.NONE", c::norm::kNone}, {"norm.NFKC", c::norm::kNfkc},
        {"norm.PREPEND", c::norm::kPrepend}, {"norm.REPLACE", c::norm::kReplace},
        {"norm.SEQUENCE", c::norm::kSequence}, {"norm.BERT", c::norm::kBert},
        {"norm.NFKC_TABLE", c::norm::kNfkcTable}, {"norm.BERT_NFD_TABLE", c::norm::kBertNfdTable},
        {"norm.STRIP", c::norm::kStrip}, {"norm.UNICODE_FORM", c::norm::kUnicodeForm},
        {"norm.LOWERCASE", c::norm::kLowercase}, {"norm.STRIP_ACCENTS", c::norm::kStripAccents},
        {"norm.REPLACE_REGEX", c::norm::kReplaceRegex}, {"norm.PRECOMPILED", c::norm::kPrecompiled},
        {"norm.BERT_EXACT", c::norm::kBertExact}, {"norm.SPM_WHITESPACE", c::norm::kSpmWhitespace},
        {"pre.NONE", c::pre::kNone}, {"pre.BYTE_LEVEL", c::pre::kByteLevel},
        {"pre.DIGITS", c::pre::kDigits}, {"pre.METASPACE", c::pre::kMetaspace},
        {"pre.SPLIT", c::pre::kSplit}, {"pre.BERT", c::pre::kBert},
        {"pre.SEQUENCE", c::pre::kSequence}, {"pre.BYTE_LEVEL_FULL", c::pre::kByteLevelFull},
        {"pre.SPLIT_FULL", c::pre::kSplitFull}, {"pre.METASPACE_FULL", c::pre::kMetaspaceFull},
        {"pre.WHITESPACE_SPLIT", c::pre::kWhitespaceSplit}, {"pre.WHITESPACE", c::pre::kWhitespace},
        {"pre.PUNCTUATION", c::pre::kPunctuation}, {"pre.CHAR_DELIMITER", c::pre::kCharDelimiter},
        {"pre.UNICODE_SCRIPTS", c::pre::kUnicodeScripts},
        {"behavior.REMOVED", c::behavior::kRemoved}, {"behavior.ISOLATED", c::behavior::kIsolated},
        {"behavior.MERGED_WITH_PREVIOUS", c::behavior::kMergedWithPrevious},
        {"behavior.MERGED_WITH_NEXT", c::behavior::kMergedWithNext},
        {"behavior.CONTIGUOUS", c::behavior::kContiguous},
        {"pattern.LITERAL", c::pattern::kLiteral}, {"pattern.ONIGURUMA", c::pattern::kOniguruma},
        {"pattern.RUST", c::pattern::kRust},
        {"model.BPE", c::model::kBpe}, {"model.WORDPIECE", c::model::kWordPiece},
        {"model.UNIGRAM", c::model::kUnigram}, {"model.BPE_FULL", c::model::kBpeFull},
        {"model.WORDPIECE_FULL", c::model::kWordPieceFull},
        {"model.UNIGRAM_FULL", c::model::kUnigramFull},
        {"model.SENTENCEPIECE_BPE", c::model::kSentencePieceBpe},
        {"model.PIECE_BYTE_FALLBACK", c::model::kPieceByteFallback},
        {"model.PIECE_HAS_UNK", c::model::kPieceHasUnk},
        {"model.PIECE_SENTENCEPIECE", c::model::kPieceSentencePiece},
        {"model.BPE_IGNORE_MERGES", c::model::kBpeIgnoreMerges},
        {"model.BPE_FUSE_UNK", c::model::kBpeFuseUnk},
        {"model.BPE_RANK_MERGES", c::model::kBpeRankMerges},
        {"model.BPE_HAS_UNK", c::model::kBpeHasUnk},
        {"dec.BYTE_LEVEL", c::dec::kByteLevel}, {"dec.BYTE_FALLBACK", c::dec::kByteFallback},
        {"dec.METASPACE", c::dec::kMetaspace}, {"dec.WORDPIECE", c::dec::kWordPiece},
        {"dec.FUSE", c::dec::kFuse}, {"dec.REPLACE", c::dec::kReplace},
        {"dec.STRIP", c::dec::kStrip}, {"dec.SEQUENCE", c::dec::kSequence},
        {"dec.NONE", c::dec::kNone}, {"dec.METASPACE_FULL", c::dec::kMetaspaceFull},
        {"dec.REPLACE_REGEX", c::dec::kReplaceRegex}, {"dec.CTC", c::dec::kCtc},
        {"dec.BPE_SUFFIX", c::dec::kBpeSuffix}, {"dec.SENTENCEPIECE", c::dec::kSentencePiece},
        {"post.NONE", c::post::kNone}, {"post.TEMPLATE", c::post::kTemplate},
        {"post.BERT", c::post::kBert}, {"post.ROBERTA", c::post::kRoberta},
        {"post.BYTE_LEVEL", c::post::kByteLevel}, {"post.SEQUENCE", c::post::kSequence},
        {"post.ITEM_A", c::post::kItemA}, {"post.ITEM_B", c::post::kItemB},
        {"post.ITEM_SPECIAL", c::post::kItemSpecial},
        {"post.OP_SEQUENCE_A", c::post::kOpSequenceA},
        {"post.OP_SPECIAL_TOKEN", c::post::kOpSpecialToken},
    };
    for (const auto& [k, v] : all) d[k] = v;
    d["tag.ADDED_FLAGS"] = c::tag::kAddedFlags;
    d["tag.POST"] = c::tag::kPost;
    d["tag.TEMPLATES"] = c::tag::kTemplates;
    d["tag.VOCAB_OFFSETS"] = c::tag::kVocabOffsets;
    d["tag.VOCAB_INDEX"] = c::tag::kVocabIndex;
    d["tag.PAIR_INDEX"] = c::tag::kPairIndex;
    d["tag.PAIR_FILTER"] = c::tag::kPairFilter;
    d["tag.RAW_BYTES"] = c::tag::kRawBytes;
    d["tag.RAW_INDEX"] = c::tag::kRawIndex;
    d["tag.RAW_TAGS"] = c::tag::kRawTags;
    d["tag.TOKEN_SPANS"] = c::tag::kTokenSpans;
    d["tag.SHORT_TOKENS"] = c::tag::kShortTokens;
    d["tag.CHAR_FOLD"] = c::tag::kCharFold;
    d["tag.CHAR_FOLD_IN_CONTEXT"] = c::tag::kCharFoldInContext;
    d["tag.WHOLE_TOKENS"] = c::tag::kWholeTokens;
    d["tag.UNIGRAM_TRIE"] = c::tag::kUnigramTrie;
    d["tag.WORDPIECE_TRIE"] = c::tag::kWordPieceTrie;
    d["tag.BPE_BOUNDARIES"] = c::tag::kBpeBoundaries;
    d["end_magic"] = nb::bytes(c::kEndMagic, sizeof(c::kEndMagic));
    d["tag.OFFSET_TRIM"] = c::tag::kOffsetTrim;
    d["tag.TRUNCATION"] = c::tag::kTruncation;
    d["tag.PADDING"] = c::tag::kPadding;
    return d;
  });
}
