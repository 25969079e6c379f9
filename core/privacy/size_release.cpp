#include "core/privacy/size_release.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/privacy/perturbed_histogram.h"

namespace dpsynth::core::privacy {

std::vector<std::string> SizeSettings::validate() const {
  std::vector<std::string> problems;
  if (declaredRows && (*declaredRows < 1 || *declaredRows > kMaxDeclaredRows))
    problems.push_back("the declared number of rows must be a whole number from 1 to " +
                       std::to_string(kMaxDeclaredRows));
  if (!(std::isfinite(epsilon) && epsilon >= 1e-6 && epsilon <= 1e6))
    problems.push_back(
        "the size epsilon (epsilon_n of the noisy number of records) must be a "
        "number from 1e-6 to 1e6");
  return problems;
}

std::string sizeSourceName(SizeSource source) {
  switch (source) {
    case SizeSource::noisy:
      return "noisy";
    case SizeSource::declared:
      return "declared";
    case SizeSource::publicSize:
      break;
  }
  return "public (replace-one)";
}

SizeSource parseSizeSource(const std::string& name) {
  if (name == "noisy") return SizeSource::noisy;
  if (name == "declared") return SizeSource::declared;
  if (name == "public (replace-one)") return SizeSource::publicSize;
  throw std::invalid_argument("unknown size source '" + name.substr(0, 40) +
                              "': use noisy, declared or public (replace-one)");
}

std::string PublishedSize::meaning() const {
  switch (source) {
    case SizeSource::noisy:
      return "The number of records is confidential, so the size used is a noisy count: the "
             "true count plus two-sided geometric noise at epsilon_n (clamped to at least 1). "
             "epsilon_n is part of the stated total epsilon.";
    case SizeSource::declared:
      return "The number of records was declared public by the user and chosen without "
             "looking at the data; it is not a count of the confidential records.";
    case SizeSource::publicSize:
      break;
  }
  return "The number of records is public under replace-one neighbours (no record was dropped "
         "for missing values).";
}

bool sizeIsConfidential(Neighbours neighbours, bool completeCasesOnly) {
  return neighbours == Neighbours::addRemove || completeCasesOnly;
}

std::int64_t sizeNoise(BitSource& bits, double epsilon) {
  std::uint64_t num = 0, den = 1;
  // One record more or fewer moves a count by 1: L1 sensitivity 1 under both relations (under
  // replace-one, for the count of complete records).
  discreteLaplaceRate(epsilon, 1, "the noisy number of records", num, den);
  return discreteLaplace(bits, num, den);
}

PublishedSize publishSize(std::size_t n, const SizeSettings& settings, Neighbours neighbours,
                          bool completeCasesOnly, BitSource& bits) {
  const auto problems = settings.validate();
  if (!problems.empty()) throw std::invalid_argument(problems.front());
  PublishedSize size;
  if (settings.declaredRows) {
    size.rows = *settings.declaredRows;
    size.source = SizeSource::declared;
    return size;
  }
  if (!sizeIsConfidential(neighbours, completeCasesOnly)) {
    size.rows = n;
    size.source = SizeSource::publicSize;
    return size;
  }
  if (n > static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max() / 2))
    throw std::invalid_argument("publishSize: the number of records is too large");
  const std::int64_t noisy = static_cast<std::int64_t>(n) + sizeNoise(bits, settings.epsilon);
  // Post-processing: a synthetic dataset needs at least one record.
  size.rows = static_cast<std::size_t>(std::max<std::int64_t>(1, noisy));
  size.source = SizeSource::noisy;
  size.epsilon = settings.epsilon;
  return size;
}

}  // namespace dpsynth::core::privacy
