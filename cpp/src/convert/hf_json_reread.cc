// HfJsonReread: a float through HF tokenizers' JSON text and back.
#include <charconv>
#include <cmath>
#include <string>

#include "convert/json_cursor.h"
#include "mtok/convert.h"

namespace mtok::convert {

namespace {

// The text serde_json writes for a finite f64: ryu's shortest digits laid
// out as ryu's pretty printer does (fixed for decimal exponents -5 < kk <=
// 16, else scientific). The layout matters where it adds digits ("1e3"
// against "1000.0"): the reader's u64 significand sees them.
std::string RyuText(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string sci(buf, res.ptr);  // [-]d[.ddd]e[+-]xx, shortest round-trip digits
  std::string out;
  size_t i = 0;
  if (sci[0] == '-') {
    out.push_back('-');
    i = 1;
  }
  size_t e = sci.find('e');
  std::string digits;
  for (size_t j = i; j < e; ++j)
    if (sci[j] != '.') digits.push_back(sci[j]);
  const int length = static_cast<int>(digits.size());
  const int exp10 = std::stoi(sci.substr(e + 1));
  const int k = exp10 - (length - 1);  // exponent of the last digit
  const int kk = length + k;           // position of the decimal point
  if (k >= 0 && kk <= 16) {
    out += digits;
    out.append(static_cast<size_t>(k), '0');
    out += ".0";
  } else if (kk > 0 && kk <= 16) {
    out += digits.substr(0, kk);
    out.push_back('.');
    out += digits.substr(kk);
  } else if (kk > -5 && kk <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-kk), '0');
    out += digits;
  } else {
    out.push_back(digits[0]);
    if (length > 1) {
      out.push_back('.');
      out += digits.substr(1);
    }
    out.push_back('e');
    out += std::to_string(kk - 1);
  }
  return out;
}

}  // namespace

double HfJsonReread(double value) {
  if (!std::isfinite(value)) return value;  // serde_json writes null: not a score HF keeps
  return SerdeF64(RyuText(value));
}

}  // namespace mtok::convert
