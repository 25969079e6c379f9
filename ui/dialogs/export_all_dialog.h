#pragma once
/// "Export all: what the release holds": one row per mechanism of the run with a "release this"
/// box, and below it what release/ and internal/ will hold, following the boxes. A mechanism
/// without a DP or aDP label (seeded run, unweighted, refused) cannot be ticked; an unusable
/// one starts unticked and goes to internal/ unless the analyst ticks it.
#include <QDialog>
#include <vector>

#include "core/pipeline/mechanism.h"
#include "ui/document/run_types.h"

class QCheckBox;
class QLabel;

namespace dpsynth::ui {

class ExportAllDialog : public QDialog {
  Q_OBJECT

 public:
  ExportAllDialog(const RunOutput& output, QWidget* parent = nullptr);

  /// The mechanisms ticked for release/.
  std::vector<core::pipeline::Mechanism> chosen() const;
  QCheckBox* box(core::pipeline::Mechanism mechanism) const;
  QLabel* summary() const { return summary_; }

 private:
  void updateSummary();

  const RunOutput& output_;
  std::vector<std::pair<core::pipeline::Mechanism, QCheckBox*>> boxes_;
  QLabel* summary_ = nullptr;
};

}  // namespace dpsynth::ui
