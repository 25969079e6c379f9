#pragma once
/// Keeps a top-level window on its screen: at a high scale factor (QT_SCALE_FACTOR=1.5) or on
/// a small display a default or restored size can be larger than the screen, which leaves the
/// window's lower part (Run, Cancel) out of reach.
class QWidget;

namespace dpsynth::ui {

/// Shrinks `window` to the available geometry of its screen (with a small margin) and moves it
/// back onto the screen when it would stick out.
void fitToScreen(QWidget* window);

}  // namespace dpsynth::ui
