#include "ui/workspaces/study/analytic_values.h"

#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/negative_binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <functional>

namespace dpsynth::ui {
namespace {

using GeneratorKind = core::study::Generator::Kind;

/// NB2 with mean mu and size phi: Boost's (r = phi, p = phi / (phi + mu)).
boost::math::negative_binomial_distribution<double> nb2(double mu, double phi) {
  return {phi, phi / (phi + mu)};
}

/// Smallest k ≥ 0 with cdf(k) ≥ p (cdf non-decreasing, reaching 1).
double countQuantile(const std::function<double(double)>& cdf, double p) {
  double k = 0;
  while (cdf(k) < p && k < 1e9) k += 1;
  return k;
}

double probabilityOf(const std::string& measure) {
  if (measure == "median") return 0.5;
  if (measure == "q15") return 0.15;
  return 0.9;  // q90
}

}  // namespace

std::optional<double> analyticValue(const core::study::Generator& generator,
                                    const std::string& measure) {
  if (measure != "mean" && measure != "median" && measure != "q15" && measure != "q90")
    return std::nullopt;
  const auto& a = generator.parameters;
  const bool mean = measure == "mean";
  const double p = mean ? 0 : probabilityOf(measure);
  try {
    switch (generator.kind) {
      case GeneratorKind::beta: {
        const boost::math::beta_distribution<double> d(a.at(0), a.at(1));
        return mean ? boost::math::mean(d) : boost::math::quantile(d, p);
      }
      case GeneratorKind::poisson: {
        const boost::math::poisson_distribution<double> d(a.at(0));
        if (mean) return a.at(0);
        return countQuantile([&](double k) { return boost::math::cdf(d, k); }, p);
      }
      case GeneratorKind::negbin: {
        const auto d = nb2(a.at(0), a.at(1));
        if (mean) return a.at(0);
        return countQuantile([&](double k) { return boost::math::cdf(d, k); }, p);
      }
      case GeneratorKind::nbmix: {
        const double w = a.at(0);
        if (mean) return w * a.at(1) + (1 - w) * a.at(3);
        const auto d1 = nb2(a.at(1), a.at(2));
        const auto d2 = nb2(a.at(3), a.at(4));
        return countQuantile(
            [&](double k) {
              return w * boost::math::cdf(d1, k) + (1 - w) * boost::math::cdf(d2, k);
            },
            p);
      }
      case GeneratorKind::normal: {
        const boost::math::normal_distribution<double> d(a.at(0), a.at(1));
        return mean ? a.at(0) : boost::math::quantile(d, p);
      }
    }
  } catch (const std::exception&) {
    return std::nullopt;  // parameters Boost refuses: no line rather than a wrong one
  }
  return std::nullopt;
}

}  // namespace dpsynth::ui
