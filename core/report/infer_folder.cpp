#include "core/report/infer_folder.h"

#include <filesystem>
#include <map>
#include <stdexcept>

#include "core/data/csv_writer.h"
#include "core/data/sha256.h"
#include "core/report/ownership_manifest.h"
#include "core/report/staged_folder.h"

namespace dpsynth::core::report {

std::vector<std::string> inferFileNames() { return {"draws.csv", "summary.json", "trace.csv"}; }

void writeInferFolder(const std::string& folder, const infer::InferOutputs& outputs,
                      bool refuseForeignFiles) {
  StagedFolder staged(folder);
  std::vector<std::string> names = inferFileNames();
  if (refuseForeignFiles) {
    if (const auto foreign = foreignFiles(staged.target(), names); !foreign.empty())
      throw std::invalid_argument(
          "refusing to replace '" +
          (std::filesystem::path(staged.target()) / foreign.front()).string() +
          "': dpsynth did not write it; nothing was written");
  }
  const std::string* texts[] = {&outputs.drawsCsv, &outputs.summaryJson, &outputs.traceCsv};
  std::map<std::string, std::string> digests;
  for (std::size_t i = 0; i < names.size(); ++i) {
    digests.emplace(names[i], data::sha256Hex(*texts[i]));
    const std::string path = staged.stagedPath(names[i]);
    try {
      data::writeStagedText(path, *texts[i]);
    } catch (const data::WriteError& e) {
      // A full disk is reported against the folder the user named, not the staging folder.
      throw data::WriteError(staged.userPath(e.path()), e.reason());
    }
  }
  // The record moves into place with the files it describes, all or nothing.
  try {
    data::writeStagedText(staged.stagedPath(kManifestName),
                          manifestRecording(staged.target(), digests));
  } catch (const data::WriteError& e) {
    throw data::WriteError(staged.userPath(e.path()), e.reason());
  }
  names.push_back(kManifestName);
  staged.commit(names);
}

}  // namespace dpsynth::core::report
