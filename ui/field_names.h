#pragma once
/// Core's messages name command-line flags ("pass --lower and --upper"); the studio names its
/// own fields instead ("'PH lower' and 'PH upper'"). One mapping, applied wherever a core
/// message reaches the user.
#include <QString>
#include <string>

namespace dpsynth::ui {

/// `message` with every known flag replaced by the studio field that sets it.
QString withFieldNames(const QString& message);
QString withFieldNames(const std::string& message);

}  // namespace dpsynth::ui
