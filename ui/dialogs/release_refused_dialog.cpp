#include "ui/dialogs/release_refused_dialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace dpsynth::ui {

namespace pipeline = core::pipeline;

RefusalReport refusalReportOf(const pipeline::RunResult& result, RefusalReport::When when,
                              std::optional<pipeline::Mechanism> only) {
  RefusalReport report;
  report.when = when;
  for (const auto& m : result.mechanisms) {
    if (m.refusals.empty() || (only && m.config.mechanism != *only)) continue;
    RefusalReport::Refused refused;
    refused.mechanism = QString::fromStdString(pipeline::mechanismName(m.config.mechanism));
    for (const auto& r : m.refusals) refused.reasons << QString::fromStdString(r);
    report.mechanisms.push_back(refused);
  }
  return report;
}

QStringList refusalParagraphs(const RefusalReport& report) {
  QStringList names;
  for (const auto& m : report.mechanisms) names << m.mechanism;
  QStringList out;
  switch (report.when) {
    case RefusalReport::When::run:
      out << QApplication::translate("ReleaseRefused",
                                     "%1: no DP label. This run's synthetic data from %1 cannot "
                                     "be released; Export all leaves them out (the internal "
                                     "folder keeps the diagnostics).")
                 .arg(names.join(QStringLiteral(", ")));
      break;
    case RefusalReport::When::exportAll:
      if (report.released.isEmpty()) {
        out << QApplication::translate("ReleaseRefused",
                                       "%1: no DP label. Nothing was written to release/ (what "
                                       "was there before is unchanged).")
                   .arg(names.join(QStringLiteral(", ")));
      } else {
        out << QApplication::translate("ReleaseRefused",
                                       "%1: no DP label: its synthetic data were not written. "
                                       "release/ holds the other mechanisms you chose: %2.")
                   .arg(names.join(QStringLiteral(", ")),
                        report.released.join(QStringLiteral(", ")));
      }
      if (!report.internalFolder.isEmpty()) {
        out << QApplication::translate("ReleaseRefused",
                                       "%1 (confidential, not for publication) holds the reports "
                                       "with these diagnostics.")
                   .arg(report.internalFolder);
      }
      break;
    case RefusalReport::When::exportSynthetic:
      out << QApplication::translate("ReleaseRefused",
                                     "%1: no DP label. No synthetic file was written.")
                 .arg(names.join(QStringLiteral(", ")));
      break;
  }
  for (const auto& m : report.mechanisms) {
    out << QApplication::translate("ReleaseRefused", "Why (%1): %2")
               .arg(m.mechanism, m.reasons.join(QStringLiteral("; ")));
  }
  out << QApplication::translate(
      "ReleaseRefused",
      "A strict DP guarantee rests on draws from the exact censored pseudo posterior. Models "
      "without covariates are drawn exactly and never refused; a regression is drawn by MCMC "
      "and released only when its chains pass a screen (R-hat at most 1.01, no divergent "
      "transitions, bulk-ESS at least 100 per chain). This fit failed the screen even after "
      "retries with fresh randomness and up to 4 times the warm-up and draws, so the guarantee "
      "would not hold.");
  out << QApplication::translate(
      "ReleaseRefused",
      "What to do: raise 'warm-up' and 'draws' (or 'chains') in 'Release and sampler', then "
      "Run again and export.");
  return out;
}

ReleaseRefusedDialog::ReleaseRefusedDialog(const RefusalReport& report, QWidget* parent)
    : QDialog(parent), report_(report) {
  setObjectName(QStringLiteral("releaseRefusedDialog"));
  setWindowTitle(tr("Release refused"));
  auto* icon = new QLabel(this);
  icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxCritical).pixmap(40, 40));

  const QStringList paragraphs = refusalParagraphs(report);
  auto* text = new QVBoxLayout;
  auto* heading = new QLabel(tr("Release refused"), this);
  heading->setStyleSheet(QStringLiteral("font-weight: bold; font-size: 14pt"));
  text->addWidget(heading);
  for (int i = 0; i < paragraphs.size(); ++i) {
    auto* label = new QLabel(paragraphs[i], this);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setTextFormat(Qt::PlainText);
    if (i == 0) label->setStyleSheet(QStringLiteral("font-weight: bold"));
    text->addWidget(label);
  }

  auto* top = new QHBoxLayout;
  top->addWidget(icon, 0, Qt::AlignTop);
  top->addLayout(text, 1);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok, this);
  auto* copy = buttons->addButton(tr("Copy message"), QDialogButtonBox::ActionRole);
  connect(copy, &QPushButton::clicked, this,
          [paragraphs] { QApplication::clipboard()->setText(paragraphs.join('\n')); });
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(buttons);
  setMinimumWidth(560);
}

RefusalPresenter refusalDialogPresenter(QWidget* parent) {
  return [parent](const RefusalReport& report) {
    auto* dialog = new ReleaseRefusedDialog(report, parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
  };
}

}  // namespace dpsynth::ui
