#pragma once
/// Static charts as inline SVG text for the HTML reports: no scripts, fonts or external files,
/// and deterministic output (coordinates printed with fixed precision in the C locale). Large
/// samples are thinned before drawing so that a report stays a few hundred kilobytes.
#include <optional>
#include <string>
#include <vector>

namespace dpsynth::core::report {

struct ChartOptions {
  std::string title;   ///< plain text (escaped), also the SVG's accessible name
  std::string xLabel;  ///< plain text
  std::string yLabel;  ///< plain text
  int width = 640;
  int height = 300;
};

/// One violin: a kernel density of `values` trimmed to their range, with the quartiles as a box
/// and the median as a dot. `reference` draws a dashed horizontal line across the violin's slot
/// (e.g. ε/2 or Δ) labelled `referenceLabel`.
struct ViolinGroup {
  std::string label;
  std::vector<double> values;
  std::optional<double> reference;
  std::string referenceLabel;
};

/// Violins side by side on a shared linear y axis. Non-finite values are ignored; a group whose
/// values are all equal is drawn as a flat bar.
std::string violinChart(const std::vector<ViolinGroup>& groups, const ChartOptions& options);

/// Points (x_i, y_i) (at most ~2000 drawn, every k-th record beyond that) with an optional
/// dashed horizontal line at `yReference` labelled `referenceLabel`. Throws
/// std::invalid_argument when x and y differ in length.
std::string scatterChart(const std::vector<double>& x, const std::vector<double>& y,
                         std::optional<double> yReference, const std::string& referenceLabel,
                         const ChartOptions& options);

struct EcdfSeries {
  std::string label;
  std::vector<double> values;
};

/// Empirical CDFs as step lines on a shared x axis (evaluated on at most 400 points spanning the
/// pooled range, or on every distinct value when there are fewer), with a legend.
std::string ecdfChart(const std::vector<EcdfSeries>& series, const ChartOptions& options);

namespace detail {
/// Tick positions: multiples of 1, 2 or 5 × 10^k covering [lo, hi] with about `count` steps.
std::vector<double> niceTicks(double lo, double hi, int count);
}  // namespace detail

}  // namespace dpsynth::core::report
