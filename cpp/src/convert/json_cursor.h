// A strict, allocation-light JSON reader for the converter's fast path: it
// walks tokenizer.json text in place. Every method returns false on anything
// it does not accept (bad syntax, lone surrogate escapes, control
// characters, NaN, nesting past a limit); the caller then leaves the file to
// the Python importer, which reports the error.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mtok::convert {

class JsonCursor {
 public:
  explicit JsonCursor(std::string_view text, size_t pos = 0) : s_(text), pos_(pos) {}

  size_t pos() const { return pos_; }
  // Skips whitespace; the next byte (0 at the end).
  char Peek();
  // Consumes `c` after whitespace.
  bool Eat(char c);
  bool AtEnd() { return Peek() == 0 && pos_ == s_.size(); }

  // A string, decoded into *out (escapes resolved, UTF-8 kept as is).
  bool String(std::string* out);
  // A non-negative integer literal (no sign, fraction or exponent) below 2^63.
  bool Unsigned(uint64_t* out);
  // Any number literal: its text, and whether it has a fraction or exponent.
  bool Number(std::string_view* text, bool* has_fraction);
  // null, true or false.
  bool Literal(std::string_view* word);
  // Any value, checked but not kept.
  bool Skip(int depth = 0);

  // Object iteration: Begin consumes '{'; Next reads the following key and
  // its ':' (false at '}' with *done set, or on a syntax error).
  bool BeginObject() { return Eat('{'); }
  bool NextKey(std::string* key, bool* done, bool* first);
  // Array iteration: Begin consumes '['; Next is true before each element.
  bool BeginArray() { return Eat('['); }
  bool NextElement(bool* done, bool* first);

 private:
  std::string_view s_;
  size_t pos_;
};

// The f64 serde_json gives for a JSON number without float_roundtrip (which
// HF tokenizers reads scores with): digits into a u64 significand, then one
// multiplication or division by a power of ten. src/mtok/convert/serde_float.py
// is the same algorithm in Python.
double SerdeF64(std::string_view number);

}  // namespace mtok::convert
