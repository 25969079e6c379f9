#include "ui/widgets/screen_fit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

namespace dpsynth::ui {

void fitToScreen(QWidget* window) {
  QScreen* screen = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
  if (!screen) return;
  const QRect available = screen->availableGeometry();
  // The frame (title bar, borders) is not known before the window is shown: leave room for it.
  constexpr int kFrameAllowance = 32;
  const QSize most(std::max(available.width() - 8, 200),
                   std::max(available.height() - kFrameAllowance, 200));
  if (window->isMaximized() || window->isFullScreen()) return;
  const QSize size = window->size().boundedTo(most);
  if (size != window->size()) window->resize(size);
  QPoint at = window->pos();
  at.setX(std::clamp(at.x(), available.left(), available.right() - size.width()));
  at.setY(
      std::clamp(at.y(), available.top(),
                 std::max(available.top(), available.bottom() - size.height() - kFrameAllowance)));
  if (at != window->pos()) window->move(at);
}

}  // namespace dpsynth::ui
