#pragma once
/// A study small enough for unit tests (seconds): poisson(20), n = 100, three replicates, two
/// short chains, unweighted + lw + censor-uw at one ε.
#include "core/study/study_config.h"

namespace dpsynth::test {

inline core::study::StudyConfig tinyStudyConfig(int replicates = 3) {
  core::study::StudyConfig c;
  c.source.generator = core::study::Generator::parse("poisson(20)");
  c.source.n = 100;
  c.mechanisms = {core::pipeline::Mechanism::unweighted, core::pipeline::Mechanism::lw,
                  core::pipeline::Mechanism::censorUw};
  c.epsilon = {6};
  c.replicates = replicates;
  c.sampler = {2, 100, 100};
  c.seed = 11;
  return c;
}

/// SPEC §8's JSON for the same study (for CLI tests).
inline const char* tinyStudyJson() {
  return R"J({"version": 1, "source": {"generator": "poisson(20)", "n": 100},
  "mechanisms": ["unweighted", "lw", "censor-uw"], "epsilon": [6], "replicates": 3,
  "sampler": {"chains": 2, "warmup": 100, "draws": 100}, "seed": 11})J";
}

}  // namespace dpsynth::test
