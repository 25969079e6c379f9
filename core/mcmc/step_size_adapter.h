#pragma once
/// Nesterov dual averaging of log(step size) towards a target mean acceptance statistic
/// (Hoffman & Gelman 2014, section 3.2), with Stan's defaults gamma = 0.05, t0 = 10,
/// kappa = 0.75. The iterates explore; the weighted average exp(x_bar) is the final step size.
namespace dpsynth::core::mcmc {

class StepSizeAdapter {
 public:
  explicit StepSizeAdapter(double targetAccept = 0.8, double gamma = 0.05, double t0 = 10.0,
                           double kappa = 0.75);

  /// Shrinkage point of log(step size); Stan uses log(10 * epsilon0) so that larger step sizes
  /// are tried early.
  void setMu(double mu) { mu_ = mu; }
  double mu() const { return mu_; }
  /// Forgets the history (after every metric update).
  void restart();
  /// Feeds one acceptance statistic (values above 1 count as 1); returns the next step size.
  double learn(double acceptStat);
  /// exp(x_bar): the step size to sample with once warm-up ends.
  double finalStepSize() const;
  int iterations() const { return counter_; }

 private:
  double targetAccept_, gamma_, t0_, kappa_;
  double mu_ = 0.0;
  int counter_ = 0;
  double sBar_ = 0.0;  ///< running average of (target - accept)
  double xBar_ = 0.0;  ///< weighted average of the log step sizes
};

}  // namespace dpsynth::core::mcmc
