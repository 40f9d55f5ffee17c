// What a stage is, for the fast paths that recognise whole pipelines
// (fast_paths/): one small struct per kind a route needs, holding that
// kind's fields alone, so a route can read only what the kind it matched
// has. Any other stage describes itself as OtherStage. Stages append their
// shape in Normalizer::Describe / PreTokenizer::Describe (pipeline.h);
// routes match with std::get_if.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

namespace mtok {

class PrecompiledNormalizer;
class Regex;
class Scanner;
enum class SplitBehavior : uint8_t;  // pre_tokenizers/pre_tokenizers.h
enum class PrependScheme : uint8_t;  // pre_tokenizers/pre_tokenizers.h

// A stage no route recognises.
struct OtherStage {};

// ---- normalizers ----

// HF's Precompiled (SentencePiece's charsmap): the stage itself, which a
// route may stream text through.
struct PrecompiledShape {
  const PrecompiledNormalizer* stage;
};

// Replace with a pattern that is a run of one byte: runs of `byte` at
// least `min_run` long become `content`.
struct RunReplaceShape {
  char byte;
  size_t min_run;
  std::string_view content;  // owned by the stage
};

// BertNormalizer's options (strip_accents resolved).
struct BertNormalizerShape {
  bool clean_text, handle_chinese_chars, strip_accents, lowercase;
};

using NormalizerStage = std::variant<OtherStage, PrecompiledShape, RunReplaceShape, BertNormalizerShape>;

// ---- pre-tokenizers ----

// Split on a regex pattern (a string pattern that is not a regex describes
// itself as OtherStage).
struct SplitShape {
  const Regex* regex;      // the compiled pattern (may be null when `scanner` is set)
  const Scanner* scanner;  // the pattern's hand-written scanner, if any (preferred)
  SplitBehavior behavior;
  bool invert;
};

struct ByteLevelShape {
  bool add_prefix_space;
  bool use_regex;          // splits with GPT-2's pattern first...
  const Scanner* scanner;  // ...through this scanner (null without use_regex)
};

struct MetaspaceShape {
  char32_t replacement;
  PrependScheme prepend_scheme;
  bool split;
};

struct WhitespaceSplitShape {};
struct BertPreTokenizerShape {};

using PreTokenizerStage = std::variant<OtherStage, SplitShape, ByteLevelShape, MetaspaceShape,
                                       WhitespaceSplitShape, BertPreTokenizerShape>;

}  // namespace mtok
