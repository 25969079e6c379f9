#include "core/pipeline/mechanism.h"

#include <array>
#include <cmath>
#include <stdexcept>

namespace dpsynth::core::pipeline {

namespace {

struct Entry {
  Mechanism mechanism;
  const char* name;
  const char* description;
};

constexpr std::array<Entry, 10> kEntries{{
    {Mechanism::unweighted, "unweighted",
     "Unweighted synthesizer: no privacy protection; reports the Lipschitz bound for reference."},
    {Mechanism::sw, "sw",
     "Scalar-weighted (exponential mechanism): one weight a for every record, a = (eps/2)/Delta "
     "or matched to LW's Delta."},
    {Mechanism::lw, "lw",
     "Likelihood-weighted: alpha_i = clamp(c(1 - normalised |log-likelihood|) + g, 0, 1)."},
    {Mechanism::cw, "cw",
     "Count-weighted: alpha_i = clamp(c(1 - isolation risk) + g, 0, 1), isolation measured "
     "within radius r."},
    {Mechanism::lwFinal, "lw-final",
     "LW followed by re-weighting: alpha_i <- clamp(k alpha_i Delta/Delta_i, 0, 1) keeps Delta "
     "while raising weights."},
    {Mechanism::cwFinal, "cw-final", "CW followed by re-weighting (k)."},
    {Mechanism::weightedE, "weighted-e",
     "LW weights, then every record whose bound exceeds eps/2 gets weight 0; refit."},
    {Mechanism::censorUw, "censor-uw",
     "Censored likelihood, unweighted: each contribution clamped to [L, U] with U - L = eps/2 "
     "(replace-one) or max(|L|, |U|) = eps/2 (add-remove): strict DP."},
    {Mechanism::censorW, "censor-w",
     "Censored likelihood with LW weights: strict DP only with weights from a public reference "
     "dataset; aDP (eps_x <= eps) with weights from the data itself."},
    {Mechanism::ph, "ph",
     "Perturbed histogram: discrete-Laplace noise on bin counts within public bounds (strict "
     "DP)."},
}};

const Entry& entryOf(Mechanism mechanism) {
  for (const auto& e : kEntries)
    if (e.mechanism == mechanism) return e;
  throw std::logic_error("unknown mechanism");
}

}  // namespace

Mechanism parseMechanism(std::string_view name) {
  for (const auto& e : kEntries)
    if (name == e.name) return e.mechanism;
  std::string names;
  for (const auto& e : kEntries) names += std::string(names.empty() ? "" : ", ") + e.name;
  throw std::invalid_argument("unknown mechanism '" + std::string(name) + "': use one of " + names);
}

std::string mechanismName(Mechanism mechanism) { return entryOf(mechanism).name; }

std::string mechanismDescription(Mechanism mechanism) { return entryOf(mechanism).description; }

const std::vector<Mechanism>& allMechanisms() {
  static const std::vector<Mechanism> all = [] {
    std::vector<Mechanism> v;
    for (const auto& e : kEntries) v.push_back(e.mechanism);
    return v;
  }();
  return all;
}

std::string guaranteeName(Guarantee guarantee) {
  switch (guarantee) {
    case Guarantee::none:
      return "none";
    case Guarantee::aDP:
      return "aDP";
    case Guarantee::DP:
      return "DP";
  }
  return "none";
}

Guarantee guaranteeOf(Mechanism mechanism, bool referenceWeights) {
  switch (mechanism) {
    case Mechanism::unweighted:
      return Guarantee::none;
    case Mechanism::censorUw:
    case Mechanism::ph:
      return Guarantee::DP;
    case Mechanism::censorW:
      return referenceWeights ? Guarantee::DP : Guarantee::aDP;
    default:
      return Guarantee::aDP;
  }
}

bool usesReferenceWeights(Mechanism mechanism) {
  return mechanism == Mechanism::censorW || mechanism == Mechanism::weightedE;
}

bool requiresEpsilon(Mechanism mechanism) {
  return mechanism == Mechanism::weightedE || mechanism == Mechanism::censorUw ||
         mechanism == Mechanism::censorW || mechanism == Mechanism::ph;
}

std::vector<SettingProblem> MechanismConfig::problems() const {
  using F = SettingField;
  std::vector<SettingProblem> out;
  if (!std::isfinite(c) || c < 0) out.push_back({{F::c}, "{c} must be a finite number >= 0"});
  if (!std::isfinite(g)) out.push_back({{F::g}, "{g} must be a finite number"});
  if (!std::isfinite(radius) || radius < 0)
    out.push_back({{F::radius}, "the CW {radius} must be a finite number >= 0"});
  if (k && !(*k > 0.0 && *k <= 1.0)) out.push_back({{F::k}, "{k} must be in (0, 1] (or auto)"});
  if (epsilon && !(std::isfinite(*epsilon) && *epsilon > 0.0))
    out.push_back({{F::epsilon}, "{epsilon} must be a finite number > 0"});
  if (requiresEpsilon(mechanism) && !epsilon)
    out.push_back({{F::epsilon}, "this mechanism needs a target epsilon ({epsilon})"});
  if (downscale && !(*downscale > 0.0 && *downscale <= 1.0))
    out.push_back({{F::downscale}, "{downscale} must be in (0, 1] (or auto)"});
  if (bins < 0)
    out.push_back({{F::bins}, "{bins} must be >= 1 (or 0 for the default ceil(sqrt(n)))"});
  if (mechanism == Mechanism::ph) {
    if (!lower || !upper) {
      out.push_back({{F::lower, F::upper},
                     "the perturbed histogram needs public lower and upper bounds: set {lower} "
                     "and {upper} (they must come from public knowledge, never from the "
                     "confidential data)"});
    } else if (!(std::isfinite(*lower) && std::isfinite(*upper) && *lower < *upper)) {
      out.push_back({{F::lower, F::upper}, "the bounds must be finite with {lower} < {upper}"});
    }
  }
  return out;
}

std::optional<std::pair<double, double>> naturalBounds(models::Family family) {
  if (family == models::Family::beta) return std::pair{0.0, 1.0};
  return std::nullopt;
}

MechanismConfig withFamilyDefaults(MechanismConfig config, models::Family family) {
  if (const auto bounds = naturalBounds(family)) {
    if (!config.lower) config.lower = bounds->first;
    if (!config.upper) config.upper = bounds->second;
  }
  return config;
}

std::vector<std::string> MechanismConfig::validate() const {
  std::vector<std::string> out;
  const std::string who = mechanismName(mechanism) + ": ";
  for (const auto& p : problems()) out.push_back(who + describe(p));
  return out;
}

}  // namespace dpsynth::core::pipeline
