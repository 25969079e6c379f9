#include "ui/plots/plot_widget.h"

#include <qcustomplot.h>

#include <QAbstractScrollArea>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QGraphicsOpacityEffect>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QScrollBar>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include "ui/controllers/files_read.h"
#include "ui/plots/plot_style.h"
#include "ui/plots/violin_plottable.h"

namespace dpsynth::ui {
namespace {

/// Redraw at most this often while data streams in (≈25 per second, well above the 4 asked).
constexpr int kReplotIntervalMs = 40;

QString fmt(double v) { return QString::number(v, 'g', 4); }

QString axisName(const QCPAxis* axis, const QString& fallback) {
  return axis && !axis->label().isEmpty() ? axis->label() : fallback;
}

/// "series\n<x label> = …\n<y label> = …", naming the axes as the reader sees them.
QString pointText(const QCPAbstractPlottable* p, double key, double value) {
  return QStringLiteral("%1\n%2 = %3\n%4 = %5")
      .arg(p->name(), axisName(p->keyAxis(), QStringLiteral("x")), fmt(key),
           axisName(p->valueAxis(), QStringLiteral("y")), fmt(value));
}

int dataPoints(const QCPAbstractPlottable* plottable) {
  if (auto* violins = qobject_cast<const ViolinPlottable*>(plottable))
    return violins->sampleCount();
  if (auto* graph = qobject_cast<const QCPGraph*>(plottable)) {
    int n = 0;  // NaN points only break lines between segments; do not count them
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
      if (!std::isnan(it->value)) ++n;
    }
    return n;
  }
  auto* self = const_cast<QCPAbstractPlottable*>(plottable);
  if (auto* data = self->interface1D()) return data->dataCount();
  return 0;
}

}  // namespace

PlotWidget::PlotWidget(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  caption_ = new QLabel(this);
  caption_->setObjectName(QStringLiteral("plotCaption"));
  caption_->setContentsMargins(6, 2, 6, 0);
  caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(caption_);
  staleBanner_ = new QLabel(this);
  staleBanner_->setObjectName(QStringLiteral("plotStaleBanner"));
  staleBanner_->setWordWrap(true);
  staleBanner_->setStyleSheet(QStringLiteral(
      "QLabel { background: #fff3cd; color: #664d03; border: 1px solid #e0c36a; padding: 3px 6px; "
      "font-weight: 600; }"));
  staleBanner_->hide();
  layout->addWidget(staleBanner_);
  plot_ = new QCustomPlot(this);
  // Low enough that a 720-line screen at a 1.5 scale factor keeps five result rows below.
  plot_->setMinimumSize(240, 110);
  layout->addWidget(plot_, 1);
  plot_style::applyStyle(plot_);
  plot_->setContextMenuPolicy(Qt::CustomContextMenu);
  plot_->setMouseTracking(true);

  replotTimer_.setSingleShot(true);
  replotTimer_.setInterval(kReplotIntervalMs);
  connect(&replotTimer_, &QTimer::timeout, this, &PlotWidget::performReplot);
  connect(plot_, &QCustomPlot::customContextMenuRequested, this, &PlotWidget::showContextMenu);
  connect(plot_, &QCustomPlot::mouseMove, this, &PlotWidget::onMouseMove);
  connect(plot_, &QCustomPlot::mouseWheel, this, [this] { userMovedView_ = true; });
  connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] { resetView(); });
  plot_->installEventFilter(this);
  connect(plot_, &QCustomPlot::afterLayout, this, &PlotWidget::fitAxisLabels);
  updateCaption();
}

void PlotWidget::setAxisLabel(QCPAxis* axis, const QString& full, const QString& brief) {
  std::erase_if(axisLabels_, [axis](const AxisLabel& l) { return l.axis == axis; });
  axisLabels_.push_back({axis, full, brief});
  axis->setLabel(full);
}

void PlotWidget::fitAxisLabels() {
  bool changed = false;
  for (const AxisLabel& l : axisLabels_) {
    if (!l.axis) continue;
    const QRect rect = l.axis->axisRect()->rect();
    const int room = l.axis->orientation() == Qt::Vertical ? rect.height() : rect.width();
    const QString wanted =
        QFontMetrics(l.axis->labelFont()).horizontalAdvance(l.full) <= room ? l.full : l.brief;
    if (l.axis->label() != wanted) {
      l.axis->setLabel(wanted);
      changed = true;
    }
  }
  // The layout is done for this replot; the next one draws the new label.
  if (changed) plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool PlotWidget::eventFilter(QObject* watched, QEvent* event) {
  // The wheel scrolls the pane the plot sits in; Ctrl+wheel zooms. A plain wheel that zoomed
  // stopped the pane's scrolling wherever a plot passed under the pointer.
  if (watched == plot_ && event->type() == QEvent::Wheel &&
      !(static_cast<QWheelEvent*>(event)->modifiers() & Qt::ControlModifier)) {
    // Not for the plot: to the scroll bar of the pane it sits in, when there is one.
    for (QWidget* w = parentWidget(); w; w = w->parentWidget()) {
      if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) {
        QCoreApplication::sendEvent(area->verticalScrollBar(), event);
        return true;
      }
    }
    event->ignore();
    return true;
  }
  return QWidget::eventFilter(watched, event);
}

PlotWidget::~PlotWidget() = default;

int PlotWidget::plottableCount() const { return plot_->plottableCount(); }

int PlotWidget::pointCount() const {
  int n = 0;
  for (int i = 0; i < plot_->plottableCount(); ++i) n += dataPoints(plot_->plottable(i));
  return n;
}

PlotTable PlotWidget::plotTable() const { return tableFromPlottables(plot_); }

QString PlotWidget::summary() const {
  QStringList lines;
  for (int i = 0; i < plot_->plottableCount(); ++i) {
    const QCPAbstractPlottable* p = plot_->plottable(i);
    lines << QStringLiteral("%1: %2 points").arg(p->name()).arg(dataPoints(p));
  }
  return lines.join(QLatin1Char('\n'));
}

bool PlotWidget::exportTo(const QString& path, QString* error) {
  if (replotTimer_.isActive()) replotNow();  // export what is about to be shown, not stale data
  // The picture names its run and mechanism (and says when it is stale), like the screen.
  QString heading = caption();
  if (stale_) heading += QStringLiteral(" — ") + staleBanner_->text();
  plot_->plotLayout()->insertRow(0);
  auto* title = new QCPTextElement(plot_, heading, QFont(font().family(), 9));
  plot_->plotLayout()->addElement(0, 0, title);
  QString message;
  const bool ok = exportPlot(plot_, path, plotTable(), &message);
  plot_->plotLayout()->remove(title);
  plot_->plotLayout()->simplify();  // drops the row the heading took
  plot_->replot(QCustomPlot::rpQueuedReplot);
  if (!ok) {
    if (error) *error = message;
    emit exportFailed(message);
    return false;
  }
  emit exported(path);
  return true;
}

QString PlotWidget::toolTipAt(const QPointF& pixel) const {
  int dataIndex = -1;
  if (QCPAbstractPlottable* p = plot_->plottableAt(pixel, false, &dataIndex)) {
    if (auto* violins = qobject_cast<ViolinPlottable*>(p)) {
      if (const int v = violins->violinAt(pixel); v >= 0) return violins->describe(v);
    } else if (auto* graph = qobject_cast<QCPGraph*>(p);
               graph && dataIndex >= 0 && dataIndex < graph->dataCount()) {
      const auto it = graph->data()->at(dataIndex);
      return pointText(p, it->key, it->value);
    } else if (auto* bars = qobject_cast<QCPBars*>(p);
               bars && dataIndex >= 0 && dataIndex < bars->dataCount()) {
      const auto it = bars->data()->at(dataIndex);
      return pointText(p, it->key, it->value);
    }
  }
  // Otherwise the coordinates under the mouse, in the axis rect it is over.
  if (QCPAxisRect* rect = plot_->axisRectAt(pixel);
      rect && rect->rect().contains(pixel.toPoint())) {
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    return QStringLiteral("%1 = %2\n%3 = %4")
        .arg(axisName(x, QStringLiteral("x")), fmt(x->pixelToCoord(pixel.x())),
             axisName(y, QStringLiteral("y")), fmt(y->pixelToCoord(pixel.y())));
  }
  return {};
}

void PlotWidget::setRunLabel(const QString& run) {
  runLabel_ = run;
  updateCaption();
}

void PlotWidget::setEmptyText(const QString& text) {
  emptyText_ = text;
  updateCaption();
}

void PlotWidget::setWaitingText(const QString& text) {
  waitingText_ = text;
  updateCaption();
}

QString PlotWidget::caption() const { return caption_->text(); }

void PlotWidget::updateCaption() {
  const QString shown = shownMechanisms();
  if (shown.isEmpty() && !waitingText_.isEmpty()) {
    caption_->setText(runLabel_.isEmpty() ? waitingText_
                                          : QStringLiteral("%1 · %2").arg(runLabel_, waitingText_));
  } else if (runLabel_.isEmpty() && shown.isEmpty()) {
    caption_->setText(emptyText_.isEmpty() ? tr("No results: press Run.") : emptyText_);
  } else if (shown.isEmpty()) {
    caption_->setText(tr("%1 · no mechanism to show").arg(runLabel_));
  } else {
    caption_->setText(runLabel_.isEmpty() ? shown
                                          : QStringLiteral("%1 · %2").arg(runLabel_, shown));
  }
}

void PlotWidget::setStale(bool stale, const QString& why) {
  stale_ = stale;
  staleBanner_->setText(
      stale ? tr("Stale: %1").arg(why.isEmpty() ? tr("not the current settings") : why)
            : QString());
  staleBanner_->setVisible(stale);
  if (stale) {
    // Greyed, like the table's stale rows: the picture stays readable but is clearly old.
    auto* effect = new QGraphicsOpacityEffect(plot_);
    effect->setOpacity(0.35);
    plot_->setGraphicsEffect(effect);  // deletes any previous effect
  } else {
    plot_->setGraphicsEffect(nullptr);
  }
}

QString PlotWidget::staleText() const { return stale_ ? staleBanner_->text() : QString(); }

void PlotWidget::resetView() {
  userMovedView_ = false;
  replotNow();
}

void PlotWidget::requestReplot() {
  if (!replotTimer_.isActive()) replotTimer_.start();
}

void PlotWidget::replotNow() {
  replotTimer_.stop();
  performReplot();
}

void PlotWidget::performReplot() {
  prepareReplot();
  updateCaption();
  plot_style::fitLegend(plot_);
  if (!userMovedView_) rescaleToData();
  plot_->replot(QCustomPlot::rpQueuedReplot);
  ++replotCount_;
}

void PlotWidget::rescaleToData() {
  if (pointCount() == 0) {
    // Nothing drawn: neutral axes, not the ranges of data that are gone (new data, new run).
    for (QCPAxisRect* rect : plot_->axisRects()) {
      rect->axis(QCPAxis::atBottom)->setRange(0, 1);
      rect->axis(QCPAxis::atLeft)->setRange(0, 1);
    }
    return;
  }
  plot_->rescaleAxes();
  // A little air around the data so markers and outlines are not cut by the frame.
  for (QCPAxisRect* rect : plot_->axisRects()) {
    for (QCPAxis* axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)}) {
      if (axis->range().size() <= 0) {
        axis->setRange(axis->range().center() - 0.5, axis->range().center() + 0.5);
      } else {
        axis->scaleRange(1.06, axis->range().center());
      }
    }
  }
}

QHBoxLayout* PlotWidget::toolbar() {
  if (!toolbar_) {
    toolbar_ = new QHBoxLayout;
    toolbar_->setContentsMargins(6, 4, 6, 0);
    static_cast<QVBoxLayout*>(layout())->insertLayout(0, toolbar_);
  }
  return toolbar_;
}

QComboBox* PlotWidget::addSelector(const QString& label, const QString& objectName) {
  auto* selector = new QComboBox(this);
  selector->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  if (!objectName.isEmpty()) selector->setObjectName(objectName);
  toolbar()->addWidget(new QLabel(label, this));
  toolbar()->addWidget(selector);
  return selector;
}

void PlotWidget::onMouseMove(QMouseEvent* event) {
  if (event->buttons() != Qt::NoButton) {
    userMovedView_ = true;  // dragging pans the view
    QToolTip::hideText();
    return;
  }
  const QString text = toolTipAt(event->position());
  if (text.isEmpty()) {
    QToolTip::hideText();
  } else {
    QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
  }
}

void PlotWidget::showContextMenu(const QPoint& pos) {
  QMenu menu(this);
  menu.addAction(tr("Export PNG…"), this, [this] { exportWithDialog(QStringLiteral("png")); });
  menu.addAction(tr("Export PDF…"), this, [this] { exportWithDialog(QStringLiteral("pdf")); });
  menu.addAction(tr("Export SVG…"), this, [this] { exportWithDialog(QStringLiteral("svg")); });
  menu.addSeparator();
  menu.addAction(tr("Reset view"), this, &PlotWidget::resetView);
  menu.exec(plot_->mapToGlobal(pos));
}

QString PlotWidget::exportProblem(const QString& path) {
  // Answered Yes, the question about the CSV beside the picture replaced the open data file
  // itself: what the studio reads is refused, as by Save session and Export plots.
  const QStringList written{path, csvPathFor(path)};
  QString input;
  const QString output = inputAmong(written, filesTheStudioReads(), &input);
  return output.isEmpty() ? QString() : isAnInputProblem(output, input);
}

void PlotWidget::exportWithDialog(const QString& suffix) {
  const QString filter = tr("%1 image (*.%2)").arg(suffix.toUpper(), suffix);
  const QString name = exportBaseName() + QLatin1Char('.') + suffix;
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export plot"), exportFolder_.isEmpty() ? name : QDir(exportFolder_).filePath(name),
      filter);
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().toLower() != suffix) path += QLatin1Char('.') + suffix;
  // The dialog asked about the picture only; its data CSV beside it replaced a file of that
  // name with no word (a plot exported as nbmix.png replaced the data, nbmix.csv).
  const QString csv = csvPathFor(path);
  if (const QString problem = exportProblem(path); !problem.isEmpty()) {
    QMessageBox::warning(this, tr("Export failed"), problem);
    return;
  }
  if (QFileInfo::exists(csv) &&
      QMessageBox::question(this, tr("Replace file?"),
                            tr("Exporting the plot also writes its data to %1, which exists. "
                               "Replace it?")
                                .arg(csv),
                            QMessageBox::Yes | QMessageBox::No,
                            QMessageBox::No) != QMessageBox::Yes)
    return;
  QString error;
  if (!exportTo(path, &error)) {
    QMessageBox::warning(this, tr("Export failed"), error);
  }
}

}  // namespace dpsynth::ui
