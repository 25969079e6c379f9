#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

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

}  // namespace dpsynth::core::models
