#include "core/summary/run_summary.h"

#include "core/exec/cancellation.h"

namespace dpsynth::core::summary {

random::Seed synthesisSeed(const pipeline::RunSettings& settings) { return settings.nuts.seed; }

RunSummary firstDatasets(const data::Dataset& dataset, const pipeline::RunResult& run,
                         const pipeline::RunSettings& settings, const std::stop_token& stop) {
  RunSummary out;
  const random::Seed seed = synthesisSeed(settings);
  for (const auto& mechanism : run.mechanisms) {
    exec::throwIfStopped(stop);
    out.synthesizers.push_back(
        std::make_unique<pipeline::Synthesizer>(dataset, mechanism, settings.model, seed, stop));
    out.firstSynthetic.push_back(out.synthesizers.back()->draw(0, stop));
  }
  return out;
}

RunSummary summarizeRun(const data::Dataset& dataset, const pipeline::RunResult& run,
                        const pipeline::RunSettings& settings, const std::stop_token& stop) {
  RunSummary out = firstDatasets(dataset, run, settings, stop);
  out.rows = resultsTable(dataset, run, out.firstSynthetic, stop);
  return out;
}

}  // namespace dpsynth::core::summary
