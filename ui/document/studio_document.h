#pragma once
/// The studio document: the one place that knows what the analyst is working on. It owns the
/// typed settings (StudioSettings: data choice, mechanisms, tuning, release and sampler), the
/// loaded data and the public reference dataset, the undo stack of typed edits
/// (ui/document/field_edit_command.h), the last run's results, and whether anything is unsaved.
/// Panels and workspaces are views: they render it when it signals changed() and send typed
/// edits (edit()); no value is ever learnt by reading a widget. Qt-thin: a QObject around plain
/// structs, so that tests drive it without a window.
#include <QFlags>
#include <QObject>
#include <QStringList>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/data/covariate_levels.h"
#include "core/data/csv_table.h"
#include "core/data/dataset.h"
#include "core/random/seed.h"
#include "core/session/session_results.h"
#include "ui/document/loaded_data.h"
#include "ui/document/reference_dataset.h"
#include "ui/document/run_types.h"
#include "ui/document/settings_field.h"
#include "ui/studio_settings.h"

class QUndoStack;

namespace dpsynth::ui {

class StudioDocument : public QObject {
  Q_OBJECT

 public:
  /// What changed, for views that render only their part.
  enum Part {
    kData = 0x1,        ///< a new table (the choice and per-dataset settings change with it)
    kChoice = 0x2,      ///< outcome, covariates, family, missing values, sd scale; dataset rebuilt
    kMechanisms = 0x4,  ///< which mechanisms are checked
    kTuning = 0x8,      ///< c, g, k, ε, radius, downscale, PH bounds and bins
    kSampler = 0x10,    ///< release and sampler settings
    kReference = 0x20,  ///< the reference dataset loaded or cleared
    kResults = 0x40,    ///< the last run's results, or whether they are current
    kFocus = 0x80,      ///< the selected mechanism (badge, plots)
  };
  Q_DECLARE_FLAGS(Parts, Part)
  /// The parts whose change makes the results outdated.
  static constexpr int kSettingsParts =
      kData | kChoice | kMechanisms | kTuning | kSampler | kReference;

  using Values = std::vector<std::pair<Field, FieldValue>>;

  explicit StudioDocument(QObject* parent = nullptr);
  ~StudioDocument() override;

  // --- Settings -------------------------------------------------------------------------
  /// The settings as edited (no reference dataset attached; see current()).
  const StudioSettings& settings() const { return settings_; }
  /// The settings a run uses now: settings() with the release seed of the loaded data, the
  /// reference dataset typed with the current choices (or referenceProblem saying why not).
  StudioSettings current() const;
  FieldValue value(Field field) const { return fieldValue(settings_, field); }
  /// One user edit of one field: one undo step. Consecutive edits of the same field with the
  /// same non-zero mergeId (a slider drag, a series of wheel notches) merge into one step; an
  /// edit to the value the field has is no step at all. Some edits carry their consequences in
  /// the same step: a new outcome leaves the covariates, and its family becomes the one
  /// suggested (undeclared); picking a family declares it.
  void edit(Field field, const FieldValue& value, int mergeId = 0);
  /// Several fields as ONE undo step named `text` (a frontier point: mechanism, ε, tuning,
  /// release switch). Fields already at their value are left out; nothing left, no step.
  void edit(const Values& values, const QString& text);
  /// Replaces the settings wholesale (a session opened, a new session): not an edit, the undo
  /// history starts afresh and the document stays unmodified.
  void replaceSettings(const StudioSettings& settings);
  QUndoStack* undoStack() const { return undo_; }
  /// The part of the document a field belongs to.
  static Part partOf(Field field);

  // --- Data -------------------------------------------------------------------------------
  bool hasData() const { return table_ != nullptr; }
  /// The table as read (all columns); null before any load.
  std::shared_ptr<const core::data::CsvTable> table() const { return table_; }
  /// The table typed with the current choice; null when the choice does not make a dataset
  /// (dataProblem() says why).
  std::shared_ptr<const core::data::Dataset> dataset() const { return dataset_; }
  QString dataProblem() const { return dataProblem_; }
  /// The categorical covariates of the current choice with their levels and reference (what
  /// the column roles offer as reference levels); empty without a dataset.
  const std::vector<core::data::CovariateLevels>& categoricalLevels() const { return levels_; }
  const DataSource& source() const { return source_; }
  /// Columns of the data that look like identifiers or codes (never a sensible outcome).
  const std::vector<std::string>& idLikeColumns() const { return idLike_; }
  /// The family the confidential values suggest for the current outcome.
  core::models::Family suggestedFamily() const { return suggested_; }
  /// False when no value of the outcome is a number: the suggestion is then only a default.
  bool suggestionFromValues() const { return suggestedFromValues_; }
  /// settings().familyDeclared, or a bundled sample (public data, its family is public too).
  bool familyDeclared() const { return settings_.familyDeclared || !source_.sample.isEmpty(); }
  /// New data: its choices as the loader typed them; the settings on the old data's scale
  /// (PH bounds and bins, CW radius), "tuned on the confidential data" and the reference
  /// dataset (per dataset, like the PH bounds) go back to their defaults; the results go; the
  /// undo history starts afresh; a new release seed is drawn. Returns what was reset, as
  /// "PH upper 300 → unset" (empty when everything was at its default).
  QStringList installData(const LoadedData& loaded);

  // --- Reference dataset ------------------------------------------------------------------
  const ReferenceDataset& reference() const { return reference_; }
  /// A reference read by the loader. `restoring`: the session's own reference arriving after
  /// the session was opened (not a change of settings: the results stay current).
  void setReference(const LoadedData& loaded, bool restoring = false);
  void clearReference();
  /// The reference typed with the current choices (null: none, or *problem says why).
  std::shared_ptr<const core::data::Dataset> referenceDataset(std::string* problem) const;

  // --- Results ----------------------------------------------------------------------------
  /// A run is starting with current(): results it brings are current unless settings change
  /// before it ends.
  void runStarting();
  /// A finished run: its output becomes the last results (and what a session keeps of them).
  void setRunOutput(const RunOutput& output);
  /// The results a session stored (nullopt: none). They are current when they were made on
  /// the data now loaded with the settings now shown (the session says so).
  void setStoredResults(const std::optional<core::session::SessionResults>& results);
  void clearResults();
  const std::optional<RunOutput>& lastOutput() const { return lastOutput_; }
  /// What a session saved now keeps of the results (none before a run), marked as made with
  /// other settings when they are not current.
  std::optional<core::session::SessionResults> sessionResults() const;
  const std::optional<core::session::SessionResults>& storedResults() const { return stored_; }
  /// The results shown were made with the settings and data shown.
  bool resultsCurrent() const { return resultsCurrent_; }
  /// Changes whenever the results themselves change (a run, a session's, none), not when they
  /// only become outdated: views redraw their tables and plots when it does.
  quint64 resultsSerial() const { return resultsSerial_; }
  /// Why the results are not current, in a sentence for the results table's note (empty when
  /// they are, or when there are none).
  QString resultsNote() const;

  // --- Focus ------------------------------------------------------------------------------
  /// The mechanism selected in the list (else the first checked one): the badge and the
  /// per-mechanism plots follow it. Not a setting: never undone, never saved.
  std::optional<core::pipeline::Mechanism> currentMechanism() const;
  void setCurrentMechanism(std::optional<core::pipeline::Mechanism> mechanism);

  // --- Unsaved work -----------------------------------------------------------------------
  bool isModified() const { return modified_; }
  /// Work the session file does not hold yet that undo cannot take back (a run, a reference);
  /// an undoable edit is unsaved while the undo stack is away from its saved index.
  void setModified();
  /// What is shown is the starting point (start-up, saved, opened, a new session).
  void setClean();

 signals:
  /// Parts of the document changed (any cause: edit, undo, redo, load, session).
  void changed(dpsynth::ui::StudioDocument::Parts parts);
  /// A user edit, undo or redo of settings, or a reference chosen or cleared: auto-run reacts
  /// to these (not to data loaded or a session opened).
  void edited();
  void modifiedChanged(bool modified);

 private:
  friend class FieldEditCommand;
  /// Sets the values (undo, redo, or a command's first redo) and announces them.
  void applyValues(const Values& values);
  /// A settings change: results outdated (or current again when undo brought back the run's
  /// settings), dataset rebuilt when the choice changed. fieldEdit: only fields changed (an
  /// edit, undo or redo), so comparing the fields tells whether the results still hold.
  void settingsChanged(Parts parts, bool userEdit, bool fieldEdit = false);
  /// True when a checked mechanism takes its weights from the reference (censor-w, ...).
  bool referenceUsed() const;
  /// True when the last run's results hold for the settings now: the same fields, and no
  /// other settings change (a reference dataset, a session) since the run started.
  bool outputMatchesSettings() const;
  void rebuildDataset();
  /// Whether the run will treat the record count as confidential (add-remove neighbours).
  bool countConfidential() const;
  /// categoricalLevels() of the dataset now built.
  void refreshLevels();
  /// Empties the undo stack without marking the document modified.
  void clearHistory();
  /// The consequences an edit carries in the same step (see edit()).
  Values withConsequences(Field field, const FieldValue& value) const;
  /// `values` plus, when they set the covariates, the reference levels of the covariates kept.
  Values withReferencesOfCovariates(Values values) const;

  StudioSettings settings_;
  QUndoStack* undo_;
  core::random::Seed releaseSeed_;

  std::shared_ptr<const core::data::CsvTable> table_;
  std::shared_ptr<const core::data::Dataset> dataset_;
  /// The relation dataset_ was built under: under add-remove the record count is confidential,
  /// and an intercept-only dataset of fewer than 2 records is no refusal (DatasetSpec).
  bool builtCountConfidential_ = false;
  DataSource source_;
  QString dataProblem_;
  std::vector<core::data::CovariateLevels> levels_;
  std::vector<std::string> idLike_;
  core::models::Family suggested_ = core::models::Family::normal;
  bool suggestedFromValues_ = true;

  ReferenceDataset reference_;

  std::optional<RunOutput> lastOutput_;
  std::optional<core::session::SessionResults> stored_;
  bool resultsCurrent_ = false;
  /// Stored results that were current when opened and were outdated by an edit since.
  bool storedChangedSince_ = false;
  quint64 otherChanges_ = 0;  ///< counts settings changes other than field edits
  /// The settings and otherChanges_ when the run in progress started, and those of the run
  /// whose output lastOutput_ holds.
  StudioSettings runSettings_, outputSettings_;
  quint64 runOtherChanges_ = 0, outputOtherChanges_ = 0;
  /// The same for the reference loaded or cleared, which matters only to mechanisms that take
  /// weights from it (outputMatchesSettings).
  quint64 referenceChanges_ = 0, runReferenceChanges_ = 0, outputReferenceChanges_ = 0;
  quint64 resultsSerial_ = 0;

  std::optional<core::pipeline::Mechanism> currentMechanism_;
  /// modified_ = unsavedOther_ || the undo stack away from its clean index.
  void updateModified();
  bool modified_ = false;
  bool unsavedOther_ = false;  ///< unsaved work outside the undo stack
  bool clearingHistory_ = false;
};

}  // namespace dpsynth::ui

Q_DECLARE_OPERATORS_FOR_FLAGS(dpsynth::ui::StudioDocument::Parts)
