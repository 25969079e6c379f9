#pragma once
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace dpsynth::core::models {

enum class Family { poisson, negbin, beta, normal };

/// "poisson" | "negbin" | "beta" | "normal"; throws std::invalid_argument otherwise.
inline Family parseFamily(std::string_view name) {
  if (name == "poisson") return Family::poisson;
  if (name == "negbin") return Family::negbin;
  if (name == "beta") return Family::beta;
  if (name == "normal") return Family::normal;
  throw std::invalid_argument("unknown family '" + std::string(name) +
                              "': use poisson, negbin, beta or normal");
}

inline std::string familyName(Family family) {
  switch (family) {
    case Family::poisson:
      return "poisson";
    case Family::negbin:
      return "negbin";
    case Family::beta:
      return "beta";
    case Family::normal:
      return "normal";
  }
  return "normal";
}

/// True for the integer-valued families (poisson, negbin).
inline bool isCountFamily(Family family) {
  return family == Family::poisson || family == Family::negbin;
}

/// The closed hull of the outcome's values: [0, 1] for beta, [0, ∞) for counts, the real line
/// for normal.
inline std::pair<double, double> outcomeSupport(Family family) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (family == Family::beta) return {0.0, 1.0};
  if (isCountFamily(family)) return {0.0, kInf};
  return {-kInf, kInf};
}

}  // namespace dpsynth::core::models
