#include "core/report/infer_folder.h"

#include <fstream>
#include <stdexcept>

#include "core/report/staged_folder.h"

namespace dpsynth::core::report {
namespace {

void writeInferText(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  if (!file.flush()) throw std::runtime_error("could not write " + path);
}

}  // namespace

void writeInferFolder(const std::string& folder, const infer::InferOutputs& outputs) {
  StagedFolder staged(folder);
  writeInferText(staged.stagedPath("draws.csv"), outputs.drawsCsv);
  writeInferText(staged.stagedPath("summary.json"), outputs.summaryJson);
  writeInferText(staged.stagedPath("trace.csv"), outputs.traceCsv);
  staged.commit({"draws.csv", "summary.json", "trace.csv"});
}

}  // namespace dpsynth::core::report
