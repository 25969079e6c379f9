#include "ui/studio_resources.h"

#include <QtGlobal>

/// Q_INIT_RESOURCE must be used outside any namespace.
static void initStudioResources() { Q_INIT_RESOURCE(resources); }

namespace dpsynth::ui {

void ensureStudioResources() {
  static const bool done = [] {
    initStudioResources();
    return true;
  }();
  (void)done;
}

}  // namespace dpsynth::ui
