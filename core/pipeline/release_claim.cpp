#include "core/pipeline/release_claim.h"

#include <cmath>
#include <filesystem>

#include "core/data/output_path.h"
#include "core/pipeline/export.h"

namespace dpsynth::core::pipeline {

Guarantee statedGuarantee(const MechanismResult& result) {
  return result.notForRelease ? Guarantee::none : result.guarantee;
}

bool releasable(const MechanismResult& result) {
  return statedGuarantee(result) != Guarantee::none && result.refusals.empty();
}

bool inReleaseFolder(const std::string& path) {
  if (path.empty()) return false;
  // Either spelling counts: the one written (a link "pub" to a release/ folder is release/)
  // and the one on paper.
  bool resolved = false;
  try {
    resolved = data::resolvedOutputPath(path).parent_path().filename() == "release";
  } catch (const std::invalid_argument&) {
  }
  return resolved ||
         std::filesystem::absolute(path).lexically_normal().parent_path().filename() == "release";
}

double sizeEpsilon(const MechanismResult& result) {
  return result.size.source == privacy::SizeSource::noisy ? result.size.epsilon : 0.0;
}

std::optional<double> mechanismEpsilon(const MechanismResult& result) {
  switch (guaranteeIfReleased(result)) {
    case Guarantee::DP:
      return result.epsilon;
    case Guarantee::aDP:
      return roundUpEpsilon(result.epsilon);
    case Guarantee::none:
      break;
  }
  return std::nullopt;
}

namespace {

/// A sum of budgets as the decimals it adds up to: 7.14 + 0.1 is 7.239999999999999 in binary,
/// which a sidecar printed beside a note saying 7.24 (rounded up). A sum within rounding of a
/// multiple of 1e-9 is that multiple (a ceiling alone turned 3 × 7.33 = 21.990000000000002 into
/// 21.990000001); any other is rounded up to one.
double tidySum(double sum) {
  const double scaled = sum * 1e9;
  const double nearest = std::round(scaled);
  return (std::abs(scaled - nearest) <= 1e-12 * std::abs(scaled) ? nearest : std::ceil(scaled)) /
         1e9;
}

}  // namespace

std::optional<double> publishedEpsilon(const MechanismResult& result) {
  const auto e = mechanismEpsilon(result);
  if (!e) return std::nullopt;
  const double size = sizeEpsilon(result);
  return size > 0 ? tidySum(*e + size) : *e;
}

std::optional<double> totalEpsilon(const MechanismResult& result, int datasets) {
  const auto e = mechanismEpsilon(result);
  if (!e) return std::nullopt;
  const double synthesis = result.ph ? *e : datasets * *e;
  const double size = sizeEpsilon(result);
  return size > 0 || datasets > 1 ? tidySum(synthesis + size) : synthesis;
}

}  // namespace dpsynth::core::pipeline
