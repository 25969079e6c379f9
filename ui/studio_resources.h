#pragma once

namespace dpsynth::ui {

/// Registers the studio's Qt resources (icons, bundled samples). They are compiled into the
/// static dpsynth_ui library, whose unreferenced objects a linker may drop; calling this from
/// the widgets that use them keeps them. Cheap and idempotent.
void ensureStudioResources();

}  // namespace dpsynth::ui
