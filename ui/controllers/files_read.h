#pragma once
/// What the studio writes never replaces a file it reads: the data, the weights reference, the
/// open session. The command line refuses such outputs (app/cli/output_plan); the studio's
/// Save session, Export plots and Save release go through the same question here.
#include <QString>
#include <QStringList>
#include <functional>

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

/// The files the studio reads now (the data, the weights reference, the open session), for
/// writers that are not told them, such as a plot's own export. The main window installs the
/// source; without one the list is empty.
using FilesReadSource = std::function<QStringList()>;
void setFilesTheStudioReads(FilesReadSource source);
QStringList filesTheStudioReads();

}  // namespace dpsynth::ui
