#pragma once
/// The four families' CellTargets (one file each), built by makeCellTarget.
#include <memory>

#include "core/privacy/cell_target.h"

namespace dpsynth::core::privacy::detail {

std::unique_ptr<CellTarget> makePoissonTarget(const ExactProblem& problem);
std::unique_ptr<CellTarget> makeNegbinTarget(const ExactProblem& problem);
std::unique_ptr<CellTarget> makeBetaTarget(const ExactProblem& problem);
std::unique_ptr<CellTarget> makeNormalTarget(const ExactProblem& problem);

}  // namespace dpsynth::core::privacy::detail
