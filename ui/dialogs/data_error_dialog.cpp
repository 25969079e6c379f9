#include "ui/dialogs/data_error_dialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace dpsynth::ui {
namespace {

QLabel* selectable(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

}  // namespace

DataErrorDialog::DataErrorDialog(const ErrorReport& report, QWidget* parent)
    : QDialog(parent), report_(report) {
  setObjectName(QStringLiteral("dataErrorDialog"));
  setWindowTitle(report.title.isEmpty() ? tr("Problem") : report.title);
  auto* icon = new QLabel(this);
  icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(40, 40));

  auto* form = new QFormLayout;
  if (!report.file.isEmpty()) form->addRow(tr("File:"), selectable(report.file, this));
  if (report.line > 0) form->addRow(tr("Line:"), selectable(QString::number(report.line), this));
  if (!report.column.isEmpty()) form->addRow(tr("Column:"), selectable(report.column, this));
  auto* problem = selectable(report.problem, this);
  problem->setStyleSheet(QStringLiteral("font-weight: bold"));
  form->addRow(tr("Problem:"), problem);
  if (!report.hint.isEmpty()) form->addRow(tr("What to do:"), selectable(report.hint, this));

  auto* top = new QHBoxLayout;
  top->addWidget(icon, 0, Qt::AlignTop);
  top->addLayout(form, 1);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok, this);
  auto* copy = buttons->addButton(tr("Copy message"), QDialogButtonBox::ActionRole);
  connect(copy, &QPushButton::clicked, this,
          [this] { QApplication::clipboard()->setText(report_.oneLine()); });
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(buttons);
  setMinimumWidth(460);
}

ErrorPresenter dialogPresenter(QWidget* parent) {
  return [parent](const ErrorReport& report) {
    auto* dialog = new DataErrorDialog(report, parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
  };
}

}  // namespace dpsynth::ui
