#pragma once
/// The bundled sample datasets, generated in memory (identical to resources/samples/*.csv).
#include <string>

#include "core/data/dataset.h"
#include "core/data/generators.h"

namespace dpsynth::test {

inline core::data::Dataset bundledSample(const std::string& kind, core::models::Family family,
                                         std::size_t n = 0) {
  const auto table = core::data::generateSample(kind, n ? n : core::data::defaultSampleSize(kind),
                                                core::data::defaultSampleSeed(kind));
  core::data::DatasetSpec spec;
  spec.outcome = table.header.back();
  spec.family = family;
  if (kind == "salary") spec.covariates = {"gender", "age_group", "weeks_worked"};
  return core::data::buildDataset(table, spec);
}

}  // namespace dpsynth::test
