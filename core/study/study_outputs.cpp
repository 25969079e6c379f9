#include "core/study/study_outputs.h"

#include <algorithm>
#include <filesystem>

#include "core/data/csv_writer.h"
#include "core/report/ownership_manifest.h"
#include "core/report/svg_chart.h"
#include "core/study/study_row.h"
#include "core/study/study_runner.h"
#include "core/study/study_summary.h"

namespace dpsynth::core::study {

std::string lipschitzViolins(const StudyConfig& config,
                             const std::vector<std::vector<std::string>>& rows) {
  return lipschitzViolins(config, studyRowsFromCsv(rows));
}

std::string lipschitzViolins(const StudyConfig& config, const std::vector<StudyRow>& rows) {
  std::vector<int> order;
  std::vector<report::ViolinGroup> groups;
  for (const auto& row : rows) {
    if (!row.cell || !row.results.lipschitz) continue;  // confidential rows, ph
    auto it = std::find(order.begin(), order.end(), *row.cell);
    if (it == order.end()) {
      order.push_back(*row.cell);
      report::ViolinGroup g;
      g.label = row.keys.mechanism;
      if (row.keys.epsilon) {
        g.label += "\nε=" + row.keys.epsilonText();
        g.reference = *row.keys.epsilon / 2;
        g.referenceLabel = "ε/2";
      }
      if (row.keys.hasDownscale)
        g.label += (row.keys.epsilon ? " " : "\n") + std::string("d=") + row.keys.downscaleText();
      groups.push_back(g);
      it = order.end() - 1;
    }
    groups[static_cast<std::size_t>(it - order.begin())].values.push_back(*row.results.lipschitz);
  }
  report::ChartOptions options;
  options.title = std::string(config.source.bootstrap ? "INTERNAL (bootstrap of confidential "
                                                        "data): "
                                                      : "") +
                  "Lipschitz bound Δ over " + std::to_string(config.replicates) + " replicates (" +
                  privacy::neighboursName(config.neighbours) + ")";
  options.height = 320;  // two-line labels; no x axis title (the labels name the mechanisms)
  options.yLabel = "Δ";
  options.width = std::max(640, 90 * static_cast<int>(groups.size()));
  return report::violinChart(groups, options);
}

std::vector<std::string> studyOutputNames() {
  return {"summary.json", "summary.md", "lipschitz.svg", kInternalMarkerFile};
}

std::vector<std::string> studyOutputNames(const StudyConfig& config) {
  std::vector<std::string> names = {"summary.json", "summary.md", "lipschitz.svg"};
  if (config.source.bootstrap) names.push_back(kInternalMarkerFile);
  return names;
}

void writeStudyOutputs(const std::string& folder, const StudyConfig& config,
                       const std::vector<std::vector<std::string>>& rows) {
  namespace fs = std::filesystem;
  // Decoded once (the CSV edge): the summaries and the chart read the same structs.
  const std::vector<StudyRow> typed = studyRowsFromCsv(rows);
  const auto cells = summarizeStudy(typed);
  data::writeTextAtomic((fs::path(folder) / "summary.json").string(), summaryJson(config, cells));
  data::writeTextAtomic((fs::path(folder) / "summary.md").string(), summaryMarkdown(config, cells));
  data::writeTextAtomic((fs::path(folder) / "lipschitz.svg").string(),
                        lipschitzViolins(config, typed));
  // A folder of bootstrap replicates of confidential data marks itself internal (SPEC §0), so
  // that no file of it is mistaken for a release.
  if (config.source.bootstrap)
    data::writeTextAtomic(
        (fs::path(folder) / kInternalMarkerFile).string(),
        std::string(kInternalStudyLine) + "\n\nThe replicates resample the file '" +
            config.source.bootstrap->file +
            "'. Every number in this folder (replicates.csv, summary.json, summary.md, "
            "lipschitz.svg) is computed from those confidential records and is covered by no "
            "privacy guarantee.\n");
  // Recorded as dpsynth's: the next run into the folder replaces them, and nothing else of those
  // names (the study's folder may be one the user keeps other files in).
  report::recordOwnedFiles(folder, studyOutputNames(config));
}

}  // namespace dpsynth::core::study
