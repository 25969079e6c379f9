#include "core/privacy/running_lipschitz.h"

#include <stdexcept>

#include "core/privacy/lipschitz.h"

namespace dpsynth::core::privacy {

RunningLipschitz::RunningLipschitz(std::shared_ptr<const models::SynthesisModel> model)
    : model_(std::move(model)) {
  if (!model_) throw std::invalid_argument("RunningLipschitz: no model");
  groups_ = groupContributions(*model_, model_->weights().alpha);
  perRecord_ = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(model_->records()));
}

void RunningLipschitz::addDraws(const Eigen::MatrixXd& rows) {
  if (rows.rows() == 0) return;
  // The batch's own reduction reuses computeLipschitz, so the contribution conventions (weight
  // 0, NaN, clamp) cannot drift from the final bound; maxima are exact, so merging batches in
  // any order gives the same bits as one pass over all draws.
  const LipschitzResult batch =
      *computeLipschitz(*model_, rows, model_->weights(), 1, std::stop_token{}, &groups_);
  const std::lock_guard lock(mutex_);
  perRecord_ = perRecord_.cwiseMax(batch.perRecord);
  max_ = perRecord_.size() > 0 ? perRecord_.maxCoeff() : 0.0;
  draws_ += static_cast<std::size_t>(rows.rows());
}

Eigen::VectorXd RunningLipschitz::perRecord() const {
  const std::lock_guard lock(mutex_);
  return perRecord_;
}

double RunningLipschitz::max() const {
  const std::lock_guard lock(mutex_);
  return max_;
}

std::size_t RunningLipschitz::draws() const {
  const std::lock_guard lock(mutex_);
  return draws_;
}

}  // namespace dpsynth::core::privacy
