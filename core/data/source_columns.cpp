#include "core/data/source_columns.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <stdexcept>
#include <unordered_map>

#include "core/data/csv_table.h"
#include "core/data/populate_pages.h"
#include "core/data/value_parsing.h"

namespace dpsynth::core::data {

struct SourceColumn::LevelIndex {
  std::unordered_map<std::string, std::uint32_t> codeOf;
};

namespace {

/// The decimals of a plain decimal text, [-]digits[.digits] (no blanks, sign '+' or exponent),
/// or -1 for any other text.
int plainDecimals(std::string_view text) {
  std::size_t i = !text.empty() && text.front() == '-' ? 1 : 0;
  const std::size_t intStart = i;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  if (i == intStart) return -1;
  if (i == text.size()) return 0;
  if (text[i] != '.') return -1;
  const std::size_t fracStart = ++i;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  if (i != text.size() || i == fracStart) return -1;
  return static_cast<int>(i - fracStart);
}

}  // namespace

PlainNumber readPlainNumber(std::string_view text) {
  // Exact powers of ten: a mantissa below 2^53 divided by one is rounded once, correctly (IEEE
  // 754), so the result is the double nearest the decimal, as from_chars gives.
  static constexpr double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  static constexpr std::uint64_t kIntegerPowers[] = {1,
                                                     10,
                                                     100,
                                                     1000,
                                                     10000,
                                                     100000,
                                                     1000000,
                                                     10000000,
                                                     100000000,
                                                     1000000000,
                                                     10000000000,
                                                     100000000000,
                                                     1000000000000,
                                                     10000000000000,
                                                     100000000000000,
                                                     1000000000000000};
  // DBL_DIG: decimals of at most 15 significant digits read as distinct doubles.
  constexpr std::uint64_t kMaxMantissa = 1'000'000'000'000'000;  // 10^15, exclusive
  constexpr std::ptrdiff_t kMaxChars = 20;  // 19 digits (within 64 bits) and a point
  PlainNumber out;
  const char* p = text.data();
  const char* const end = p + text.size();
  const bool negative = p != end && *p == '-';
  if (negative) ++p;
  const char* const begin = p;
  if (end - begin > kMaxChars) return out;
  // One pass, one exit: the digits into the mantissa, the point remembered.
  std::uint64_t mantissa = 0;
  const char* point = nullptr;
  for (; p != end; ++p) {
    const auto digit = static_cast<unsigned char>(*p - '0');
    if (digit < 10) {
      mantissa = mantissa * 10 + digit;
    } else if (*p == '.' && !point) {
      point = p;
    } else {
      return out;
    }
  }
  const char* const wholeEnd = point ? point : end;
  const auto wholeLength = static_cast<std::size_t>(wholeEnd - begin);
  const auto decimals = static_cast<std::size_t>(point ? end - point - 1 : 0);
  if (wholeLength == 0 || (point && decimals == 0) || decimals >= std::size(kPowers) ||
      mantissa >= kMaxMantissa)
    return out;
  const double magnitude = static_cast<double>(mantissa) / kPowers[decimals];
  out.ok = true;
  out.value = negative ? -magnitude : magnitude;
  // The shortest form: canonical (no leading zero but a lone one before the point, no trailing
  // zero after it), its digits then the shortest that round-trip, written plainly by
  // std::to_chars unless the exponent form is shorter (ties go to the plain form).
  if (wholeLength > 1 && *begin == '0') return out;
  // At most 15 significant digits: the double is within 2^-53 of the decimal, far less than
  // half its last place, so std::to_chars with as many decimals rounds back to this text.
  out.decimals = static_cast<int>(decimals);
  if (point && end[-1] == '0') return out;
  if (mantissa == 0) {
    out.shortest = !point;  // "0" and "-0"; "0.0" is not canonical anyway
    return out;
  }
  // The mantissa's digits: about log10(2) per bit, then one comparison.
  const auto estimate = (static_cast<std::size_t>(std::bit_width(mantissa)) * 1233) >> 12;
  const std::size_t digits = estimate + 1 - (mantissa < kIntegerPowers[estimate] ? 1 : 0);
  std::size_t significant = digits;
  if (!point)
    while (significant > 1 &&
           wholeEnd[-static_cast<std::ptrdiff_t>(digits - significant) - 1] == '0')
      --significant;
  const bool belowOne = *begin == '0';
  const std::size_t exponent = belowOne ? decimals - digits + 1 : wholeLength - 1;  // magnitude
  const std::size_t scientific =
      (negative ? 1 : 0) + significant + (significant > 1 ? 1 : 0) + 2 + (exponent >= 100 ? 3 : 2);
  out.shortest = text.size() <= scientific;
  return out;
}

void SourceColumn::startNumeric(std::size_t records) {
  *this = SourceColumn();
  kind_ = Kind::numeric;
  values_.reserve(records);
  populatePages(values_.data(), records * sizeof(double));
}

void SourceColumn::appendPlainSlowly(const PlainNumber& number, std::string_view text) {
  if (number.shortest) {
    appendFormatted(number.value, text, kShortest);
  } else if (number.decimals >= 0 && number.decimals < kAsText - 1) {
    appendFormatted(number.value, text, static_cast<std::uint8_t>(1 + number.decimals));
  } else {
    appendNumber(number.value, text);
  }
}

void SourceColumn::appendNumber(double value, std::string_view text) {
  char buffer[CellText::kBufferBytes];
  std::uint8_t format = kAsText;
  const int decimals = plainDecimals(text);
  // Shortest forms never end in a zero after the point: such a text skips that check.
  const bool trailingZero = decimals > 0 && text.back() == '0';
  bool shortest = false;
  if (!trailingZero) {
    const auto written = std::to_chars(buffer, buffer + sizeof buffer, value);
    shortest = written.ec == std::errc{} && std::string_view(buffer, written.ptr) == text;
  }
  if (shortest) {
    format = kShortest;
  } else if (decimals >= 0 && decimals < kAsText - 1 && text.size() < sizeof buffer) {
    const auto fixed =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
    if (fixed.ec == std::errc{} && std::string_view(buffer, fixed.ptr) == text)
      format = static_cast<std::uint8_t>(1 + decimals);
  }
  appendFormatted(value, text, format);
}

void SourceColumn::appendFormatted(double value, std::string_view text, std::uint8_t format) {
  const std::size_t row = numbers_++;
  values_.push_back(value);
  if (!formats_.empty()) {
    formats_.push_back(format);
  } else if (format != kShortest) {  // the first cell not in the shortest form
    formats_.reserve(values_.capacity());
    formats_.assign(row, kShortest);
    formats_.push_back(format);
  }
  if (format == kAsText) {
    exceptionRows_.push_back(static_cast<std::uint32_t>(row));
    exceptionText_.append(text);
    exceptionEnds_.push_back(static_cast<std::uint32_t>(exceptionText_.size()));
  }
}

void SourceColumn::startText(std::size_t records) {
  *this = SourceColumn();
  kind_ = Kind::text;
  codes_.reserve(records);
  populatePages(codes_.data(), records * sizeof(std::uint32_t));
  index_ = std::make_shared<LevelIndex>();
}

void SourceColumn::appendText(std::string_view text) {
  const auto [at, inserted] =
      index_->codeOf.try_emplace(std::string(text), static_cast<std::uint32_t>(levels_.size()));
  if (inserted) levels_.emplace_back(text);
  codes_.push_back(at->second);
}

void SourceColumn::finish() { index_.reset(); }

CellText SourceColumn::text(std::size_t row) const {
  switch (kind_) {
    case Kind::text:
      return CellText(levels_[codes_[row]]);
    case Kind::numeric:
      if (!holdsValues())
        throw std::logic_error("SourceColumn::text: the numbers are kept in the design");
      return numberText(row, values_[row]);
    case Kind::absent:
      break;
  }
  throw std::logic_error("SourceColumn::text: the column holds no cells");
}

CellText SourceColumn::numberText(std::size_t row, double value) const {
  const std::uint8_t format = formats_.empty() ? kShortest : formats_[row];
  if (format == kAsText) {
    const auto at = std::lower_bound(exceptionRows_.begin(), exceptionRows_.end(),
                                     static_cast<std::uint32_t>(row));
    const auto k = static_cast<std::size_t>(at - exceptionRows_.begin());
    const std::uint32_t begin = k == 0 ? 0 : exceptionEnds_[k - 1];
    return CellText(std::string_view(exceptionText_).substr(begin, exceptionEnds_[k] - begin));
  }
  CellText cell;
  char* const first = cell.buffer_;
  char* const last = cell.buffer_ + CellText::kBufferBytes;
  const auto written = format == kShortest
                           ? std::to_chars(first, last, value)
                           : std::to_chars(first, last, value, std::chars_format::fixed,
                                           static_cast<int>(format - 1));
  cell.size_ = static_cast<std::size_t>(written.ptr - first);
  return cell;
}

std::size_t SourceTable::columnIndex(const std::string& name) const {
  return columnIndexIn(header, file, name);
}

CellText SourceTable::cell(std::size_t row, std::size_t column) const {
  if (!holds(column))
    throw std::logic_error("SourceTable::cell: column " + std::to_string(column) +
                           " is not a declared covariate");
  return cells[column].text(row);
}

}  // namespace dpsynth::core::data
