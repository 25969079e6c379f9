#include "core/infer/naive_bayes_marginals.h"

#include <boost/math/distributions/beta.hpp>
#include <stdexcept>

namespace dpsynth::core::infer {

double BetaMarginal::density(double x) const {
  if (!(x >= 0.0 && x <= 1.0)) return 0.0;
  // The pdf is infinite at an edge when a or b is below 1; report the edge as 0 rather than
  // letting a plot's axis range blow up.
  if ((x == 0.0 && a < 1.0) || (x == 1.0 && b < 1.0)) return 0.0;
  return boost::math::pdf(boost::math::beta_distribution<double>(a, b), x);
}

BetaMarginal naiveBayesMarginal(const NaiveBayesModel& model, const Eigen::VectorXd& counts,
                                int parameter) {
  const NaiveBayesLayout& l = model.layout();
  if (counts.size() != model.statisticDim()) {
    throw std::invalid_argument("naiveBayesMarginal: counts do not match the layout");
  }
  if (parameter < 0 || parameter >= model.parameterDim()) {
    throw std::invalid_argument("naiveBayesMarginal: parameter out of range");
  }
  const double alpha = model.priorAlpha();
  const int classes = l.classCount();
  // The probability vector holding the parameter, as Dirichlet parameters α + counts.
  std::vector<double> concentration;
  int at = 0;
  if (parameter < classes) {
    for (int i = 0; i < classes; ++i) {
      double n = 0.0;
      for (int j = 0; j < l.levelCount(0); ++j) n += counts[l.cell(i, 0, j)];
      concentration.push_back(alpha + n);
    }
    at = parameter;
  } else {
    const int cell = parameter - classes;
    const int i = cell / l.cellsPerClass();
    int within = cell % l.cellsPerClass();
    int k = 0;
    while (within >= l.levelCount(k)) within -= l.levelCount(k++);
    for (int j = 0; j < l.levelCount(k); ++j)
      concentration.push_back(alpha + counts[l.cell(i, k, j)]);
    at = within;
  }
  double total = 0.0;
  for (double c : concentration) total += c;
  const double a = concentration[static_cast<std::size_t>(at)];
  return {a, total - a};
}

BetaMarginal naiveBayesPriorMarginal(const NaiveBayesModel& model, int parameter) {
  return naiveBayesMarginal(model, Eigen::VectorXd::Zero(model.statisticDim()), parameter);
}

}  // namespace dpsynth::core::infer
