#include "core/report/bundle_export.h"

#include <filesystem>
#include <stdexcept>

#include "core/data/csv_writer.h"
#include "core/exec/cancellation.h"
#include "core/pipeline/bundle_ownership.h"
#include "core/pipeline/bundle_writer.h"
#include "core/pipeline/synthesis.h"
#include "core/report/staged_files.h"

namespace dpsynth::core::report {

namespace {

namespace fs = std::filesystem;

/// Refuses a bundle path that is one of the files the run read (same device and inode).
void refuseInputs(const pipeline::SyntheticBundle& bundle, const std::vector<std::string>& inputs) {
  std::vector<std::string> paths = bundle.csvFiles;
  paths.push_back(bundle.sidecar);
  for (const auto& path : paths) {
    for (const auto& input : inputs) {
      std::error_code ec;
      if (!input.empty() && fs::exists(path, ec) && fs::equivalent(path, input, ec))
        throw std::invalid_argument("refusing to overwrite " + path + ": it is the input file " +
                                    input + "; choose another file name");
    }
  }
}

std::vector<std::string> supersededOrRefuse(const std::string& csvPath, int m,
                                            const std::vector<std::string>& inputs) {
  const auto earlier = pipeline::earlierBundle(csvPath, m, inputs);
  if (!earlier.problem.empty())
    throw std::invalid_argument(earlier.problem +
                                "; nothing was written or removed: move it away or choose "
                                "another file name");
  return earlier.superseded;
}

}  // namespace

pipeline::SyntheticBundle exportSyntheticBundle(
    const std::string& csvPath, const data::Dataset& dataset,
    const pipeline::MechanismResult& result, const models::ModelSpec& spec, int m,
    random::Seed seed, const std::vector<std::string>& inputs, const std::stop_token& stop) {
  if (m < 1) throw std::invalid_argument("the number of synthetic datasets must be >= 1");
  if (!result.refusals.empty()) throw std::invalid_argument(pipeline::refusalMessage(result));
  std::vector<std::string> read = inputs;
  read.push_back(dataset.file);
  refuseInputs(pipeline::syntheticBundlePaths(csvPath, m), read);
  supersededOrRefuse(csvPath, m, read);  // refused before anything is drawn
  const pipeline::Synthesizer synthesizer(dataset, result, spec, seed, stop);
  StagedFiles outputs;
  const pipeline::SyntheticBundle bundle = pipeline::syntheticBundlePaths(csvPath, m);
  try {
    for (const auto& f : bundle.csvFiles) outputs.stage(f);
    outputs.stage(bundle.sidecar);
    pipeline::SyntheticBundleWriter writer(outputs.stagingPath(csvPath), dataset, result, m, seed,
                                           /*staged=*/true);
    for (int k = 0; k < m; ++k) writer.add(synthesizer.draw(k, stop), stop);
    writer.finish();
  } catch (const data::WriteError& e) {
    throw data::WriteError(outputs.userPath(e.path()), e.reason());
  }
  exec::throwIfStopped(stop);
  // Checked again, under the folder's lock: the files may have changed while the datasets were
  // drawn, and another dpsynth may be committing the same names.
  outputs.commit([&] {
    for (const auto& old : supersededOrRefuse(csvPath, m, read)) outputs.supersede(old);
  });
  return bundle;
}

}  // namespace dpsynth::core::report
