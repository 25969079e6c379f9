#pragma once
/// What the studio writes never replaces a file it reads: the data, the weights reference, the
/// open session. The command line refuses such outputs (app/cli/output_plan); the studio's
/// Save session, Export plots and Save release go through the same question here.
#include <QString>
#include <QStringList>
#include <functional>
#include <string>
#include <vector>

class QWidget;

namespace dpsynth::ui {

/// The first of `outputs` that is one of `inputs` (the same file, through any link or another
/// spelling), or an empty string; *input, when given, names the input it is. Inputs that are
/// empty or do not exist are skipped.
QString inputAmong(const QStringList& outputs, const QStringList& inputs, QString* input = nullptr);

/// The sentence an error report gives for `output`, which is the input file `input`.
QString isAnInputProblem(const QString& output, const QString& input);

/// "FOLDER holds a, b, which dpsynth did not write (or which changed since it wrote them)." for
/// files of an output's names that its folder's manifest does not vouch for (one file: "it").
QString foreignFilesText(const QString& folder, const QStringList& names);

/// The files `names` (plain names) in `folder`, as paths.
QStringList pathsIn(const QString& folder, const std::vector<std::string>& names);

/// Asks whether files dpsynth did not write may be replaced (the text names them).
using ReplaceQuestion = std::function<bool(const QString& text)>;

/// Of the files `names` that an output writes into `folder`, those dpsynth cannot show it
/// wrote (core::report::foreignFiles; none when the folder cannot be read: the writer's own
/// error names it) go into *foreign, and the analyst is asked about them: foreignFilesText,
/// then `question`, put to `ask` or, without one, to a question box over `parent` (No by
/// default). True when there are none or the answer is yes.
bool mayReplaceForeignFiles(QWidget* parent, const ReplaceQuestion& ask, const QString& folder,
                            const std::vector<std::string>& names, const QString& question,
                            QStringList& foreign);

/// The files the studio reads now (the data, the weights reference, the open session), for
/// writers that are not told them, such as a plot's own export. The main window installs the
/// source; without one the list is empty.
using FilesReadSource = std::function<QStringList()>;
void setFilesTheStudioReads(FilesReadSource source);
QStringList filesTheStudioReads();

}  // namespace dpsynth::ui
