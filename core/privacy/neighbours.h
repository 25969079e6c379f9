#pragma once
/// The neighbour relation a guarantee is stated under, and what follows from it (SPEC §0):
/// the censoring interval [L, U] of the censored mechanisms and the L1 sensitivity of the
/// perturbed histogram's counts.
#include <string>
#include <string_view>

#include "core/models/family.h"

namespace dpsynth::core::privacy {

enum class Neighbours {
  replaceOne,  ///< bounded DP: n is public and one record's values change (paper 002)
  addRemove,   ///< unbounded DP: one record is added or removed (paper 001's leave-one-out)
};

/// "replace-one" | "add-remove"; throws std::invalid_argument naming both otherwise.
Neighbours parseNeighbours(std::string_view name);
std::string neighboursName(Neighbours neighbours);
/// One sentence for release notes: what two neighbouring databases are.
std::string neighboursMeaning(Neighbours neighbours);

/// A clamp interval for one record's contribution α_i f_θ(x_i).
struct ClampInterval {
  double lower = 0;
  double upper = 0;
};

/// The interval that makes the censored pseudo posterior ε-DP. The exponential mechanism gives
/// ε = 2·sup|u(x, θ) − u(x′, θ)|; with every contribution in [L, U] that sup is max(|L|, |U|)
/// under add-remove and U − L under replace-one. Count families have log-pmf ≤ 0, so [−ε/2, 0]
/// serves both relations; beta and normal log-densities can be positive, so they get
/// [−ε/4, ε/4] (replace-one) or [−ε/2, ε/2] (add-remove).
ClampInterval censorInterval(models::Family family, Neighbours neighbours, double epsilon);

/// sup over θ of |u(x) − u(x′)| for contributions clamped to `interval`: U − L (replace-one) or
/// max(|L|, |U|) (add-remove). The mechanism is 2·this-DP.
double clampSensitivity(const ClampInterval& interval, Neighbours neighbours);

/// max(|L|, |U|): where every censored Δ_i lies. It is ε/2 under add-remove and for count
/// families, ε/4 for beta and normal under replace-one (whose ε rests on U − L instead).
double clampBound(const ClampInterval& interval);

/// L1 sensitivity of a histogram's counts: 2 (replace-one: one count down, another up) or 1.
int histogramSensitivity(Neighbours neighbours);

}  // namespace dpsynth::core::privacy
