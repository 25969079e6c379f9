#pragma once
/// A public reference dataset's design matched to the data's (censor-w and weighted-e take a
/// weight function fitted on the reference and apply it to the data's records, SPEC §0): the
/// same covariates with the same levels give the same design columns, whichever level each file
/// lists first (an SPSS or Stata file in label order, a CSV sorted). The studio and the command
/// line match alike, so that `dpsynth run` takes a session the studio ran.
#include <optional>
#include <string>

#include "core/data/dataset.h"

namespace dpsynth::core::data {

/// `reference` with the design columns of `data` (same names, same order), re-coding the
/// dummies of a categorical covariate whose first level differs; nullopt with *problem naming
/// each covariate whose levels or kind differ (a person can compare the lists).
std::optional<Dataset> matchDesign(const Dataset& reference, const Dataset& data,
                                   std::string* problem);

}  // namespace dpsynth::core::data
