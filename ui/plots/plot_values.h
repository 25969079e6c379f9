#pragma once
/// Small value helpers shared by the plots: number text for tooltips and CSV exports, and the
/// finite part of a series (KDEs, histograms and axis ranges cannot use NaN or infinities).
#include <QString>
#include <cmath>
#include <vector>

namespace dpsynth::ui::plot_values {

/// 12 significant digits: enough to redraw a plot from its CSV, short enough to read.
inline QString number(double v) { return QString::number(v, 'g', 12); }

inline std::vector<double> finite(const std::vector<double>& values) {
  std::vector<double> out;
  out.reserve(values.size());
  for (double v : values) {
    if (std::isfinite(v)) out.push_back(v);
  }
  return out;
}

}  // namespace dpsynth::ui::plot_values
