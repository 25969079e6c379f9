#include "ui/dialogs/help_dialog.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "core/version.h"
#include "ui/studio_resources.h"

#ifndef DPSYNTH_LICENSE
#define DPSYNTH_LICENSE "LicenseRef-proprietary"
#endif

namespace dpsynth::ui {

HelpDialog::HelpDialog(QWidget* parent) : QDialog(parent) {
  setObjectName(QStringLiteral("helpDialog"));
  setWindowTitle(tr("dpsynth studio help"));
  browser_ = new QTextBrowser(this);
  browser_->setOpenExternalLinks(false);
  browser_->setHtml(helpHtml());
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(browser_, 1);
  layout->addWidget(buttons);
  resize(720, 640);
}

QString HelpDialog::helpHtml() {
  ensureStudioResources();
  QFile file(QStringLiteral(":/dpsynth/help/help.html"));
  if (!file.open(QIODevice::ReadOnly))
    return tr("<p>The help page is missing from this build.</p>");
  return QString::fromUtf8(file.readAll());
}

QString HelpDialog::aboutText() {
  return tr("<h3>dpsynth studio %1</h3>"
            "<p>Differentially private synthetic data from Bayesian synthesizers with weighted, "
            "censored and histogram mechanisms, with the privacy accounting (Lipschitz bounds, "
            "ε) and utility measures needed to choose between them.</p>"
            "<p>Licence: %2</p>"
            "<p>Built with Qt %3 and QCustomPlot.</p>")
      .arg(QString::fromStdString(core::version()), QStringLiteral(DPSYNTH_LICENSE),
           QString::fromLatin1(qVersion()));
}

}  // namespace dpsynth::ui
