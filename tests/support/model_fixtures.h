#pragma once
/// Small in-memory Datasets for model tests, built directly (no CSV): outcomes drawn from a
/// known generating model with a fixed seed, an intercept column and optional covariates
/// (one binary, the others rounded normals so that some records repeat), plus helpers for
/// weights and random points.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/models/family.h"
#include "core/models/model.h"
#include "core/random/rng.h"

namespace dpsynth::test {

/// Dataset with the given outcomes and design [1, covariates].
inline core::data::Dataset makeDataset(core::models::Family family, const Eigen::VectorXd& y,
                                       const Eigen::MatrixXd& covariates = Eigen::MatrixXd()) {
  core::data::Dataset d;
  d.file = std::string("fixture");
  d.outcomeName = std::string("y");
  d.family = family;
  d.y = y;
  const Eigen::Index n = y.size();
  const Eigen::Index k = covariates.size() == 0 ? 0 : covariates.cols();
  d.X.resize(n, 1 + k);
  d.X.col(0).setOnes();
  if (k > 0) d.X.rightCols(k) = covariates;
  d.designNames.emplace_back("(Intercept)");
  for (Eigen::Index j = 0; j < k; ++j) {
    d.designNames.push_back(std::to_string(j + 1));
    d.designNames.back().insert(d.designNames.back().begin(), 'x');
  }
  for (Eigen::Index i = 0; i < n; ++i) d.fileLines.push_back(static_cast<std::size_t>(i + 2));
  return d;
}

inline core::data::Dataset makeDataset(core::models::Family family, std::vector<double> y) {
  return makeDataset(family, Eigen::Map<const Eigen::VectorXd>(y.data(), Eigen::Index(y.size())));
}

/// n × k covariates: column 0 is a 0/1 indicator, the others standard normals rounded to one
/// decimal.
inline Eigen::MatrixXd fixtureCovariates(Eigen::Index n, Eigen::Index k, std::uint64_t seed) {
  auto rng = core::random::makeRng(seed, 101);
  Eigen::MatrixXd c(n, k);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < k; ++j) {
      c(i, j) = j == 0 ? (core::random::uniform01(rng) < 0.4 ? 1.0 : 0.0)
                       : std::round(10.0 * core::random::standardNormal(rng)) / 10.0;
    }
  }
  return c;
}

/// Outcomes from the family with linear predictor η_i = η0 + Σ_j 0.3·(−1)^j covariates(i, j):
/// poisson mean e^η (η0 = log 20), negbin the same with φ = 3, beta with mean logistic(η)
/// (η0 = −1) and λ = 8, normal with mean η (η0 = 5) and σ = 2.
inline Eigen::VectorXd fixtureOutcomes(core::models::Family family,
                                       const Eigen::MatrixXd& covariates, Eigen::Index n,
                                       std::uint64_t seed) {
  using core::models::Family;
  namespace rnd = core::random;
  auto rng = rnd::makeRng(seed, 202);
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    double shift = 0.0;
    for (Eigen::Index j = 0; j < covariates.cols(); ++j) {
      shift += (j % 2 == 0 ? 0.3 : -0.3) * covariates(i, j);
    }
    switch (family) {
      case Family::poisson:
        y[i] = double(rnd::poisson(rng, std::exp(std::log(20.0) + shift)));
        break;
      case Family::negbin:
        y[i] = double(rnd::negativeBinomial(rng, std::exp(std::log(20.0) + shift), 3.0));
        break;
      case Family::beta: {
        const double mean = 1.0 / (1.0 + std::exp(-(-1.0 + shift)));
        double v = rnd::beta(rng, 8.0 * mean, 8.0 * (1.0 - mean));
        y[i] = std::clamp(v, 1e-6, 1.0 - 1e-6);
        break;
      }
      case Family::normal:
        y[i] = rnd::normal(rng, 5.0 + shift, 2.0);
        break;
    }
  }
  return y;
}

/// A dataset of n records with k covariates (k = 0: intercept-only).
inline core::data::Dataset fixtureDataset(core::models::Family family, Eigen::Index n,
                                          Eigen::Index k, std::uint64_t seed) {
  const Eigen::MatrixXd c = k > 0 ? fixtureCovariates(n, k, seed) : Eigen::MatrixXd(n, 0);
  return makeDataset(family, fixtureOutcomes(family, c, n, seed), c);
}

/// A regression whose design QR has work to do: the fixture's binary and normal covariates, plus
/// a rounded normal covariate on an offset and scale of its own (mean, sd) that the outcome does
/// not depend on, so that the direct form's coefficients are correlated and R* is not trivial.
inline core::data::Dataset offsetCovariateRegression(core::models::Family family, Eigen::Index n,
                                                     std::uint64_t seed, double mean, double sd) {
  const Eigen::MatrixXd base = fixtureCovariates(n, 2, seed);
  Eigen::MatrixXd covariates(n, 3);
  covariates.leftCols(2) = base;
  auto rng = core::random::makeRng(seed, 9);
  for (Eigen::Index i = 0; i < n; ++i)
    covariates(i, 2) = std::round(mean + sd * core::random::standardNormal(rng));
  return makeDataset(family, fixtureOutcomes(family, base, n, seed), covariates);
}

/// The model spec of a parameterisation. The direct form is the reference: the direct
/// per-record model, while the automatic one also takes the exact sufficient-statistic shortcut
/// where its family has one (normal), so that both change at once.
inline core::models::ModelSpec formSpec(core::models::Family family,
                                        core::models::Parameterisation p) {
  core::models::ModelSpec s{family};
  s.parameterisation = p;
  s.sufficientStatistics = p == core::models::Parameterisation::automatic;
  return s;
}

/// n weights in [0, 1]: about a fifth exactly 0, a fifth exactly 1, the rest uniform and rounded
/// to one decimal (so that (y, X, α) repeats).
inline std::vector<double> fixtureWeights(std::size_t n, std::uint64_t seed) {
  auto rng = core::random::makeRng(seed, 303);
  std::vector<double> alpha(n);
  for (auto& a : alpha) {
    const double u = core::random::uniform01(rng);
    a = u < 0.2 ? 0.0 : u < 0.4 ? 1.0 : std::round(10.0 * core::random::uniform01(rng)) / 10.0;
  }
  return alpha;
}

inline Eigen::VectorXd vec(std::initializer_list<double> values) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double x : values) v[i++] = x;
  return v;
}

}  // namespace dpsynth::test
