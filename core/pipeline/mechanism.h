#pragma once
/// The privacy mechanisms of SPEC §4 and their settings.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/models/family.h"
#include "core/pipeline/setting_problem.h"

namespace dpsynth::core::pipeline {

enum class Mechanism { unweighted, sw, lw, cw, lwFinal, cwFinal, weightedE, censorUw, censorW, ph };

/// "unweighted" | "sw" | "lw" | "cw" | "lw-final" | "cw-final" | "weighted-e" | "censor-uw" |
/// "censor-w" | "ph"; throws std::invalid_argument listing the valid names otherwise.
Mechanism parseMechanism(std::string_view name);
std::string mechanismName(Mechanism mechanism);
/// All mechanisms in the order of SPEC §4.
const std::vector<Mechanism>& allMechanisms();
/// One line for tooltips and help: what the mechanism does.
std::string mechanismDescription(Mechanism mechanism);

enum class Guarantee { none, aDP, DP };
/// "none" | "aDP" | "DP" (the report's spelling).
std::string guaranteeName(Guarantee guarantee);
/// The guarantee a mechanism claims (SPEC §0): censor-w is DP only with weights from a public
/// reference (referenceWeights), aDP with weights from the data it releases.
Guarantee guaranteeOf(Mechanism mechanism, bool referenceWeights = false);
/// True for the mechanisms that can use a weight function from reference data (censor-w,
/// weighted-e).
bool usesReferenceWeights(Mechanism mechanism);
/// True if the mechanism needs an ε (weighted-e, censor-uw, censor-w, ph).
bool requiresEpsilon(Mechanism mechanism);

/// Tuning of one mechanism. Fields that a mechanism does not use are ignored by it.
struct MechanismConfig {
  Mechanism mechanism = Mechanism::unweighted;
  double c = 1.0;                         ///< weight scale (lw, cw and everything built on them)
  double g = 0.0;                         ///< weight shift
  double radius = 0.2;                    ///< CW ball radius
  bool radiusRelative = true;             ///< radius is r·|y_i| (true) or absolute r (false)
  std::optional<double> k;                ///< re-weighting k in (0,1]; nullopt = auto search
  std::optional<double> epsilon;          ///< target ε (required by weighted-e, censor-*, ph)
  std::optional<double> downscale = 1.0;  ///< d in (0,1]; nullopt = auto (weighted-e, censor-w)
  std::optional<double> lower;            ///< PH public lower bound
  std::optional<double> upper;            ///< PH public upper bound
  int bins = 0;                           ///< PH bins; 0 = ceil(sqrt(n))
  /// Older sessions' switch for seeded PH noise. A seeded run is never a release anyway (SPEC
  /// §0): front ends turn this into a reproducible run; the pipeline seeds PH noise whenever
  /// the run is not a release.
  bool reproducibleNoise = false;

  /// Empty when usable; otherwise one problem per fault, naming its fields (front ends spell
  /// them as flags or widget labels).
  std::vector<SettingProblem> problems() const;
  /// problems() as plain-language messages "<mechanism>: <text with the plain keys>".
  std::vector<std::string> validate() const;
};

/// The public bounds a family's outcome lives in whatever the data (SPEC §4: the beta family's
/// (0, 1)), [lower, upper]; none for the families whose outcome is unbounded. A property of the
/// family, never of the confidential values, so the perturbed histogram may use them (SPEC §0).
std::optional<std::pair<double, double>> naturalBounds(models::Family family);

/// The rule every front end uses (the command line, the studio, studies, sessions): a PH bound
/// the user left unset takes the family's natural bound (naturalBounds); bounds the user set are
/// kept. Nothing else changes. The pipeline applies it too (runMechanisms), so front ends call it
/// before validating.
MechanismConfig withFamilyDefaults(MechanismConfig config, models::Family family);

}  // namespace dpsynth::core::pipeline
