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

std::vector<std::string> inferFileNames() { return {"draws.csv", "summary.json", "trace.csv"}; }

void writeInferFolder(const std::string& folder, const infer::InferOutputs& outputs) {
  StagedFolder staged(folder);
  const std::vector<std::string> names = inferFileNames();
  writeInferText(staged.stagedPath(names[0]), outputs.drawsCsv);
  writeInferText(staged.stagedPath(names[1]), outputs.summaryJson);
  writeInferText(staged.stagedPath(names[2]), outputs.traceCsv);
  staged.commit(names);
}

}  // namespace dpsynth::core::report
