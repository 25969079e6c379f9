#pragma once
/// The header every release file begins with, one codec for the three kinds (naive-bayes,
/// linreg, ph): "version" 1, "kind", "mechanism", "epsilon", "neighbours", "n", and the
/// "not_for_release" mark of a seeded release. The neighbour relation is typed here, as
/// everywhere: a kind defined for replace-one only says so when the file names another.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/infer/release_reader.h"
#include "core/privacy/neighbours.h"

namespace dpsynth::core::infer {

struct ReleaseHeader {
  std::string kind;       ///< "naive-bayes", "linreg", "ph"
  std::string mechanism;  ///< e.g. "discrete-laplace"
  double epsilon = 0;     ///< as asked (the noise rate never exceeds it)
  privacy::Neighbours neighbours = privacy::Neighbours::replaceOne;
  int n = 0;                   ///< the published size
  bool notForRelease = false;  ///< made with a seeded (reproducible) noise source
};

/// Writes version, kind, mechanism, epsilon, neighbours and n, in that order, into `j` (a
/// release's first keys). The not_for_release mark goes last: writeReleaseMark.
void writeReleaseHeader(nlohmann::ordered_json& j, const ReleaseHeader& header);
/// "not_for_release": true when the header says so (nothing otherwise).
void writeReleaseMark(nlohmann::ordered_json& j, const ReleaseHeader& header);

/// What a kind accepts in its header.
struct ReleaseHeaderRules {
  std::string kind;
  /// The accepted "mechanism" values; empty: any text, or none.
  std::vector<std::string> mechanisms;
  /// False: the kind is defined for replace-one neighbours only.
  bool addRemove = false;
};

/// Reads and checks the header (version 1, the kind, a known mechanism, ε > 0 and finite, the
/// neighbour relation, 1 ≤ n ≤ kMaxReleaseRecords, not_for_release, false when absent). Fails
/// through `r` (one line naming the file and the key).
ReleaseHeader readReleaseHeader(const io::JsonReader& r, const ReleaseHeaderRules& rules);

}  // namespace dpsynth::core::infer
