#include "core/privacy/exact_sampler.h"

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/privacy/cell_envelope.h"

namespace dpsynth::core::privacy {

namespace {

/// ℓ above a cell's bound by more than this share of ℓ's range cannot be rounding: the bound
/// is wrong, and continuing would give inexact draws.
constexpr double kDefectTolerance = 1e-7;
/// Proposals between checks of the stop token and of the running acceptance.
constexpr std::size_t kCheckEvery = 256;
/// Proposals before the running acceptance is trusted enough to trigger more refinement.
constexpr std::size_t kAcceptanceWindow = 2048;

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

ExactSample sampleExact(const ExactProblem& problem, int draws, random::Rng& rng,
                        std::stop_token stop, const ExactSamplerSettings& settings) {
  if (draws < 1) throw std::invalid_argument("exact sampler: draws must be >= 1");
  const auto target = makeCellTarget(problem);
  ExactSample out;
  auto start = std::chrono::steady_clock::now();
  CellEnvelope envelope(*target,
                        target->dim() == 1 ? settings.cellsPerAxis1d : settings.cellsPerAxis2d,
                        settings.maxCells, settings.maxWork);
  double goal = settings.goal;
  if (!envelope.refine(goal, stop)) {
    out.cancelled = true;
    return out;
  }
  out.stats.refineSeconds = secondsSince(start);
  start = std::chrono::steady_clock::now();

  const double tolerance = kDefectTolerance * (1.0 + target->scale());
  Eigen::MatrixXd result;
  std::size_t windowProposals = 0, windowAccepted = 0;
  auto& s = out.stats;
  while (s.accepted < static_cast<std::size_t>(draws)) {
    if (s.proposals % kCheckEvery == 0) {
      if (stop.stop_requested()) {
        out.cancelled = true;
        return out;
      }
      // OS*-style: when proposals are accepted at under half the goal, the envelope is looser
      // than its bound promised where the mass is; refine further (the draws stay exact: each
      // trial uses the envelope as it then is).
      if (windowProposals >= kAcceptanceWindow) {
        const double rate = static_cast<double>(windowAccepted) / windowProposals;
        if (rate < 0.5 * goal && envelope.cellsLeft()) {
          // Each time with a fresh work budget: the sampler must not stall on a coarse envelope.
          envelope.allowMoreWork(settings.maxWork);
          goal = std::min(0.95, std::max(goal, envelope.acceptanceBound()) + 0.1);
          const auto refineStart = std::chrono::steady_clock::now();
          if (!envelope.refine(goal, stop)) {
            out.cancelled = true;
            return out;
          }
          s.refineSeconds += secondsSince(refineStart);
        }
        windowProposals = windowAccepted = 0;
      }
    }
    ++s.proposals;
    ++windowProposals;
    const CellEnvelope::Proposal p = envelope.propose(rng);
    const double logU = std::log(random::uniformOpen01(rng));
    if (!p.valid) continue;
    const double logTarget = target->logTarget(p.theta);
    if (std::isnan(logTarget)) {
      // Only where two parameters are beyond 1e150 at once does the model's arithmetic fail;
      // such a point is drawn again (the region's prior mass is below 1e-300).
      ++s.unevaluable;
      continue;
    }
    const double excess = logTarget - p.bound;
    if (excess > 0.0) {
      if (!(excess <= tolerance))  // also catches NaN
        throw std::logic_error("exact sampler: the envelope's bound " + std::to_string(p.bound) +
                               " is below the target by " + std::to_string(excess) +
                               " (a defect in the cell bounds)");
      ++s.roundingSlips;
    }
    if (logU < excess) {
      const Eigen::VectorXd u = target->unconstrained(p.theta, rng);
      if (result.size() == 0) result.resize(draws, u.size());
      result.row(static_cast<Eigen::Index>(s.accepted)) = u.transpose();
      ++s.accepted;
      ++windowAccepted;
    }
  }
  s.cells = envelope.cells();
  s.acceptanceBound = envelope.acceptanceBound();
  s.sampleSeconds = secondsSince(start);
  out.draws = std::move(result);
  return out;
}

}  // namespace dpsynth::core::privacy
