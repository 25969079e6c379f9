#include "core/privacy/neighbours.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dpsynth::core::privacy {

Neighbours parseNeighbours(std::string_view name) {
  if (name == "replace-one") return Neighbours::replaceOne;
  if (name == "add-remove") return Neighbours::addRemove;
  throw std::invalid_argument("unknown neighbour relation '" + std::string(name.substr(0, 40)) +
                              "': use replace-one or add-remove");
}

std::string neighboursName(Neighbours neighbours) {
  return neighbours == Neighbours::addRemove ? "add-remove" : "replace-one";
}

std::string neighboursMeaning(Neighbours neighbours) {
  if (neighbours == Neighbours::addRemove)
    return "Two databases are neighbours when one is the other with one record added or "
           "removed (unbounded differential privacy). The number of records n is then "
           "confidential: it is never published as it is, only as a noisy count (whose epsilon "
           "is part of the total) or replaced by a size the user declared public.";
  return "Two databases are neighbours when they have the same number of records and differ in "
         "the values of one record (bounded differential privacy). The number of records n is "
         "public; the number of complete records left after dropping records with missing "
         "values is not, and is published only as a noisy count or a declared size.";
}

ClampInterval censorInterval(models::Family family, Neighbours neighbours, double epsilon) {
  if (!(std::isfinite(epsilon) && epsilon > 0.0))
    throw std::invalid_argument("censorInterval: epsilon must be a finite number > 0");
  if (models::isCountFamily(family)) return {-epsilon / 2.0, 0.0};
  if (neighbours == Neighbours::replaceOne) return {-epsilon / 4.0, epsilon / 4.0};
  return {-epsilon / 2.0, epsilon / 2.0};
}

double clampBound(const ClampInterval& interval) {
  return std::max(std::abs(interval.lower), std::abs(interval.upper));
}

double clampSensitivity(const ClampInterval& interval, Neighbours neighbours) {
  if (neighbours == Neighbours::replaceOne) return interval.upper - interval.lower;
  return std::max(std::abs(interval.lower), std::abs(interval.upper));
}

int histogramSensitivity(Neighbours neighbours) {
  return neighbours == Neighbours::addRemove ? 1 : 2;
}

}  // namespace dpsynth::core::privacy
