#include "core/report/infer_folder.h"

#include <stdexcept>

#include "core/data/csv_writer.h"
#include "core/report/staged_folder.h"

namespace dpsynth::core::report {

std::vector<std::string> inferFileNames() { return {"draws.csv", "summary.json", "trace.csv"}; }

void writeInferFolder(const std::string& folder, const infer::InferOutputs& outputs) {
  StagedFolder staged(folder);
  const std::vector<std::string> names = inferFileNames();
  const std::string* texts[] = {&outputs.drawsCsv, &outputs.summaryJson, &outputs.traceCsv};
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string path = staged.stagedPath(names[i]);
    try {
      data::writeStagedText(path, *texts[i]);
    } catch (const data::WriteError& e) {
      // A full disk is reported against the folder the user named, not the staging folder.
      throw data::WriteError(staged.userPath(e.path()), e.reason());
    }
  }
  staged.commit(names);
}

}  // namespace dpsynth::core::report
