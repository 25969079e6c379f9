#pragma once
/// "Release refused" (SPEC §0): a DP mechanism whose censored fit failed its diagnostics (R-hat,
/// divergences, bulk-ESS) gets no DP label and its synthetic data are not released. The dialog
/// says which mechanism, why, what was (not) written and what to do, in the studio's own words
/// (field names, never command-line flags). Non-modal, like DataErrorDialog.
#include <QDialog>
#include <QStringList>
#include <functional>
#include <optional>
#include <vector>

#include "core/pipeline/pipeline.h"

namespace dpsynth::ui {

struct RefusalReport {
  enum class When { run, exportAll, exportSynthetic };
  When when = When::run;
  struct Refused {
    QString mechanism;
    QStringList reasons;  ///< core's refusal messages ("stage censor-uw: bulk-ESS 43 ...")
  };
  std::vector<Refused> mechanisms;
  /// Export all: the internal/ folder that was written (it holds the diagnostics).
  QString internalFolder;
  /// Export all: the mechanisms written to release/ all the same (a refusal blocks only its own
  /// mechanism when the analyst chose what to release).
  QStringList released;

  bool empty() const { return mechanisms.empty(); }
};

/// The refused mechanisms of a run (only `only` when given).
RefusalReport refusalReportOf(const core::pipeline::RunResult& result, RefusalReport::When when,
                              std::optional<core::pipeline::Mechanism> only = std::nullopt);

/// The dialog's text as plain paragraphs: what was refused and why, what was written, what to
/// do. Tests check it; the dialog shows it.
QStringList refusalParagraphs(const RefusalReport& report);

class ReleaseRefusedDialog : public QDialog {
  Q_OBJECT

 public:
  explicit ReleaseRefusedDialog(const RefusalReport& report, QWidget* parent = nullptr);
  const RefusalReport& report() const { return report_; }

 private:
  RefusalReport report_;
};

using RefusalPresenter = std::function<void(const RefusalReport&)>;
/// The default presenter: a ReleaseRefusedDialog deleted on close, opened window-modally
/// without blocking.
RefusalPresenter refusalDialogPresenter(QWidget* parent);

}  // namespace dpsynth::ui
