#include "ui/dialogs/export_all_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "core/pipeline/release_claim.h"
#include "ui/controllers/export_actions.h"

namespace dpsynth::ui {

namespace pipeline = core::pipeline;

ExportAllDialog::ExportAllDialog(const RunOutput& output, QWidget* parent)
    : QDialog(parent), output_(output) {
  setObjectName(QStringLiteral("exportAllDialog"));
  setWindowTitle(tr("Export all: what the release holds"));
  auto* group = new QGroupBox(tr("Release these mechanisms"), this);
  auto* rows = new QVBoxLayout(group);
  const auto defaults = ExportActions::defaultReleaseChoice(output);
  const auto& mechanisms = output.result->mechanisms;
  for (std::size_t j = 0; j < mechanisms.size(); ++j) {
    const auto& m = mechanisms[j];
    const auto mechanism = m.config.mechanism;
    auto* box = new QCheckBox(ExportActions::releaseChoiceText(output, j), group);
    box->setObjectName(QString::fromStdString(pipeline::mechanismName(mechanism)));
    box->setEnabled(pipeline::releasable(m));
    box->setChecked(std::find(defaults.begin(), defaults.end(), mechanism) != defaults.end());
    rows->addWidget(box);
    boxes_.emplace_back(mechanism, box);
    connect(box, &QCheckBox::toggled, this, [this] { updateSummary(); });
  }
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("exportSummary"));
  summary_->setWordWrap(true);
  summary_->setTextFormat(Qt::PlainText);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(summary_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
  buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(group);
  layout->addWidget(scroll, 1);
  layout->addWidget(buttons);
  resize(620, 520);
  updateSummary();
}

std::vector<pipeline::Mechanism> ExportAllDialog::chosen() const {
  std::vector<pipeline::Mechanism> out;
  for (const auto& [mechanism, box] : boxes_)
    if (box->isEnabled() && box->isChecked()) out.push_back(mechanism);
  return out;
}

QCheckBox* ExportAllDialog::box(pipeline::Mechanism mechanism) const {
  for (const auto& [m, box] : boxes_)
    if (m == mechanism) return box;
  return nullptr;
}

void ExportAllDialog::updateSummary() {
  summary_->setText(ExportActions::releaseSummary(output_, chosen()));
}

}  // namespace dpsynth::ui
