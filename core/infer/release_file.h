#pragma once
/// The versioned release file (JSON, "version": 1; README "Release files") and the naive-Bayes
/// release of 004 §4 made from confidential records. The file holds only what an analyst may
/// see: the mechanism, ε, the neighbour relation, the public layout, n (public under
/// replace-one), the noisy values, the noise rate, the model and its prior.
#include <Eigen/Dense>
#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

#include "core/infer/naive_bayes_release.h"
#include "core/privacy/neighbours.h"
#include "core/privacy/perturbed_histogram.h"

namespace dpsynth::core::infer {

struct NaiveBayesRelease {
  NaiveBayesLayout layout;
  int n = 0;
  double epsilon = 0.0;  ///< as asked; the noise rate below never exceeds it
  /// Replace-one only (the sensitivity 2K is that relation's).
  privacy::Neighbours neighbours = privacy::Neighbours::replaceOne;
  /// Discrete Laplace rate t = rateNum / rateDen ≤ ε / (2K): P(noise = k) ∝ exp(−|k| t).
  std::uint64_t rateNum = 0, rateDen = 1;
  Eigen::VectorXd noisyCounts;  ///< in NaiveBayesLayout::cell() order
  double priorAlpha = 2.0;      ///< Dirichlet(α, …, α) on every probability vector
  bool notForRelease = false;   ///< made with a seeded (reproducible) noise source

  /// 1/t: η(m | n) ∝ exp(−|m − n| / scale), the Laplace scale 2K/ε of 004 (rounded up).
  double laplaceScale() const {
    return static_cast<double>(rateDen) / static_cast<double>(rateNum);
  }
  NaiveBayesModel model() const;
};

/// Counts the records (codes: class, then one level per feature) and adds exact discrete
/// Laplace noise of rate ε/(2K) from bits to every class×feature count. Replace-one only: one
/// changed record moves at most two cells per feature, L1 sensitivity 2K. Throws
/// std::invalid_argument for an invalid layout, ε outside (0, 1e6], no records or a code
/// outside the layout. `stop` is checked in the passes over the records (exec::Cancelled).
NaiveBayesRelease makeNaiveBayesRelease(const NaiveBayesLayout& layout, const CodedRecords& records,
                                        double epsilon, privacy::BitSource& bits,
                                        bool notForRelease, double priorAlpha = 2.0,
                                        const std::stop_token& stop = {});

/// The release as JSON text (version 1).
std::string releaseToJson(const NaiveBayesRelease& release);
/// Parses a release file's text; `file` names it in messages. Throws std::invalid_argument with
/// one line naming the file and what is wrong (not JSON, unknown version or kind, missing or
/// ill-typed keys, counts that do not match the layout).
NaiveBayesRelease releaseFromJson(const std::string& text, const std::string& file);

}  // namespace dpsynth::core::infer
