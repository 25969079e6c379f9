#include "core/report/svg_chart.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <span>
#include <stdexcept>

#include "core/report/html_writer.h"
#include "core/utility/kernel_density.h"

namespace dpsynth::core::report {

namespace {

constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b",
                                    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#d62728"};
constexpr const char* kReferenceColor = "#c0392b";
constexpr int kLeft = 66, kRight = 18, kTop = 32, kBottom = 48;
constexpr std::size_t kMaxScatterPoints = 2000;
constexpr std::size_t kMaxEcdfPoints = 400;

const char* color(std::size_t i) { return kPalette[i % (sizeof kPalette / sizeof *kPalette)]; }

/// Pixel coordinates with one decimal: enough for a sharp chart, and the text stays short.
std::string px(double v) {
  if (!std::isfinite(v)) v = 0;
  double rounded = std::round(v * 10) / 10;
  if (rounded == 0) rounded = 0;  // no "-0"
  char buffer[32];
  const auto r =
      std::to_chars(buffer, buffer + sizeof buffer, rounded, std::chars_format::fixed, 1);
  return std::string(buffer, r.ptr);
}

std::string tickLabel(double v, double step) {
  if (std::abs(v) < step * 1e-9) return "0";
  char buffer[32];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::general, 4);
  return std::string(buffer, r.ptr);
}

/// Maps data values linearly onto a pixel interval.
struct Axis {
  double lo = 0, hi = 1, pxLo = 0, pxHi = 1;
  double operator()(double v) const { return pxLo + (v - lo) / (hi - lo) * (pxHi - pxLo); }
};

/// [lo, hi] widened by `pad` of its length on both sides, and never empty.
std::pair<double, double> paddedRange(double lo, double hi, double pad) {
  if (!(hi > lo)) {
    const double half = lo == 0 ? 1.0 : std::abs(lo) * 0.1;
    return {lo - half, hi + half};
  }
  const double d = (hi - lo) * pad;
  return {lo - d, hi + d};
}

std::vector<double> finiteValues(const std::vector<double>& values) {
  std::vector<double> out;
  out.reserve(values.size());
  for (double v : values)
    if (std::isfinite(v)) out.push_back(v);
  return out;
}

/// Opening tag, title, plot frame, y grid with ticks, and the axis labels.
std::string openChart(const ChartOptions& o, const Axis& y) {
  std::string s =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + std::to_string(o.width) + " " +
      std::to_string(o.height) + "\" width=\"" + std::to_string(o.width) + "\" height=\"" +
      std::to_string(o.height) + "\" role=\"img\" aria-label=\"" + escapeHtml(o.title) +
      "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"11\">\n";
  s += "<title>" + escapeHtml(o.title) + "</title>\n";
  s += "<rect x=\"0\" y=\"0\" width=\"" + std::to_string(o.width) + "\" height=\"" +
       std::to_string(o.height) + "\" fill=\"#fff\"/>\n";
  s += "<text x=\"" + std::to_string(o.width / 2) +
       "\" y=\"18\" text-anchor=\"middle\" font-size=\"13\" font-weight=\"bold\">" +
       escapeHtml(o.title) + "</text>\n";
  const double left = kLeft, right = o.width - kRight;
  const auto ticks = detail::niceTicks(y.lo, y.hi, 5);
  const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1.0;
  for (double t : ticks) {
    const std::string ty = px(y(t));
    s += "<line x1=\"" + px(left) + "\" x2=\"" + px(right) + "\" y1=\"" + ty + "\" y2=\"" + ty +
         "\" stroke=\"#e3e6ea\"/>\n";
    s += "<text x=\"" + px(left - 5) + "\" y=\"" + px(y(t) + 4) + "\" text-anchor=\"end\">" +
         escapeHtml(tickLabel(t, step)) + "</text>\n";
  }
  s += "<rect x=\"" + px(left) + "\" y=\"" + px(kTop) + "\" width=\"" + px(right - left) +
       "\" height=\"" + px(o.height - kTop - kBottom) + "\" fill=\"none\" stroke=\"#9aa3ad\"/>\n";
  s += "<text x=\"" + px((left + right) / 2) + "\" y=\"" + px(o.height - 8) +
       "\" text-anchor=\"middle\">" + escapeHtml(o.xLabel) + "</text>\n";
  s += "<text transform=\"translate(14 " + px(kTop + (o.height - kTop - kBottom) / 2.0) +
       ") rotate(-90)\" text-anchor=\"middle\">" + escapeHtml(o.yLabel) + "</text>\n";
  return s;
}

std::string xTicks(const ChartOptions& o, const Axis& x) {
  std::string s;
  const auto ticks = detail::niceTicks(x.lo, x.hi, 6);
  const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1.0;
  const double bottom = o.height - kBottom;
  for (double t : ticks) {
    const std::string tx = px(x(t));
    s += "<line x1=\"" + tx + "\" x2=\"" + tx + "\" y1=\"" + px(bottom) + "\" y2=\"" +
         px(bottom + 4) + "\" stroke=\"#9aa3ad\"/>\n";
    s += "<text x=\"" + tx + "\" y=\"" + px(bottom + 16) + "\" text-anchor=\"middle\">" +
         escapeHtml(tickLabel(t, step)) + "</text>\n";
  }
  return s;
}

std::string dashedLine(double x1, double x2, double y, const std::string& label) {
  std::string s = "<line x1=\"" + px(x1) + "\" x2=\"" + px(x2) + "\" y1=\"" + px(y) + "\" y2=\"" +
                  px(y) + "\" stroke=\"" + kReferenceColor +
                  "\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n";
  if (!label.empty())
    s += "<text x=\"" + px(x2 - 2) + "\" y=\"" + px(y - 4) + "\" text-anchor=\"end\" fill=\"" +
         kReferenceColor + "\" font-size=\"10\">" + escapeHtml(label) + "</text>\n";
  return s;
}

std::string noData(const ChartOptions& o) {
  return "<text x=\"" + std::to_string(o.width / 2) + "\" y=\"" + std::to_string(o.height / 2) +
         "\" text-anchor=\"middle\" fill=\"#5b6470\">no data</text>\n";
}

double sortedQuantile(const std::vector<double>& sorted, double p) {
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  if (lo + 1 >= sorted.size()) return sorted.back();
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[lo + 1] - sorted[lo]);
}

}  // namespace

namespace detail {

std::vector<double> niceTicks(double lo, double hi, int count) {
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi) || count < 1) return {lo};
  const double rough = (hi - lo) / count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
  const double norm = rough / magnitude;
  const double step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude;
  std::vector<double> ticks;
  const double first = std::ceil(lo / step - 1e-9);
  for (double k = first; k * step <= hi + step * 1e-9; k += 1) ticks.push_back(k * step);
  return ticks;
}

}  // namespace detail

std::string violinChart(const std::vector<ViolinGroup>& groups, const ChartOptions& o) {
  std::vector<std::vector<double>> values;
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& g : groups) {
    values.push_back(finiteValues(g.values));
    std::sort(values.back().begin(), values.back().end());
    if (!values.back().empty()) {
      lo = std::min(lo, values.back().front());
      hi = std::max(hi, values.back().back());
    }
    if (g.reference && std::isfinite(*g.reference)) {
      lo = std::min(lo, *g.reference);
      hi = std::max(hi, *g.reference);
    }
  }
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  lo = std::min(lo, 0.0);
  auto [ylo, yhi] = paddedRange(lo, hi, 0.05);
  if (lo >= 0) ylo = std::max(ylo, 0.0);
  const Axis y{ylo, yhi, static_cast<double>(o.height - kBottom), static_cast<double>(kTop)};
  std::string s = openChart(o, y);
  if (groups.empty()) return s + noData(o) + "</svg>\n";

  const double left = kLeft, width = o.width - kLeft - kRight;
  const double slot = width / static_cast<double>(groups.size());
  const double half = std::min(slot * 0.38, 60.0);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const double cx = left + slot * (static_cast<double>(g) + 0.5);
    const auto& v = values[g];
    const std::string fill = color(g);
    if (v.empty()) {
      s += "<text x=\"" + px(cx) + "\" y=\"" + px(y(ylo + (yhi - ylo) / 2)) +
           "\" text-anchor=\"middle\" fill=\"#5b6470\">no data</text>\n";
    } else if (v.back() - v.front() <= 1e-12 * std::max(1.0, std::abs(v.front()))) {
      s += "<line x1=\"" + px(cx - half * 0.8) + "\" x2=\"" + px(cx + half * 0.8) + "\" y1=\"" +
           px(y(v.front())) + "\" y2=\"" + px(y(v.front())) + "\" stroke=\"" + fill +
           "\" stroke-width=\"4\"/>\n";
    } else {
      const auto kde =
          utility::kernelDensityOn(std::span<const double>(v), v.front(), v.back(), 96);
      const double peak = *std::max_element(kde.density.begin(), kde.density.end());
      std::string points;
      for (std::size_t k = 0; k < kde.grid.size(); ++k)
        points += px(cx + half * kde.density[k] / peak) + "," + px(y(kde.grid[k])) + " ";
      for (std::size_t k = kde.grid.size(); k-- > 0;)
        points += px(cx - half * kde.density[k] / peak) + "," + px(y(kde.grid[k])) + " ";
      points.pop_back();
      s += "<polygon points=\"" + points + "\" fill=\"" + fill +
           "\" fill-opacity=\"0.55\" stroke=\"" + fill + "\"/>\n";
      const double q1 = sortedQuantile(v, 0.25), q2 = sortedQuantile(v, 0.5),
                   q3 = sortedQuantile(v, 0.75);
      s += "<rect x=\"" + px(cx - 3) + "\" y=\"" + px(y(q3)) + "\" width=\"6\" height=\"" +
           px(std::max(0.5, y(q1) - y(q3))) + "\" fill=\"#333\"/>\n";
      s += "<circle cx=\"" + px(cx) + "\" cy=\"" + px(y(q2)) +
           "\" r=\"2.5\" fill=\"#fff\" stroke=\"#333\"/>\n";
    }
    const auto& group = groups[g];
    if (group.reference && std::isfinite(*group.reference))
      s += dashedLine(cx - slot / 2 + 4, cx + slot / 2 - 4, y(*group.reference),
                      group.referenceLabel);
    // A label holds one line per '\n' ("censor-w\nε=4 d=auto" stays readable in a narrow slot),
    // each its own <text>: renderers of SVG Tiny ignore tspan offsets.
    std::size_t from = 0;
    for (int line = 0;; ++line) {
      const std::size_t end = group.label.find('\n', from);
      const std::string text =
          group.label.substr(from, end == std::string::npos ? end : end - from);
      s += "<text x=\"" + px(cx) + "\" y=\"" + px(o.height - kBottom + 16 + 12 * line) +
           "\" text-anchor=\"middle\">" + escapeHtml(text) + "</text>\n";
      if (end == std::string::npos) break;
      from = end + 1;
    }
  }
  return s + "</svg>\n";
}

std::string scatterChart(const std::vector<double>& x, const std::vector<double>& y,
                         std::optional<double> yReference, const std::string& referenceLabel,
                         const ChartOptions& o) {
  if (x.size() != y.size())
    throw std::invalid_argument("scatterChart: x and y must have the same length");
  std::vector<std::size_t> keep;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (std::isfinite(x[i]) && std::isfinite(y[i])) keep.push_back(i);
  double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
  for (std::size_t i : keep) {
    xlo = std::min(xlo, x[i]), xhi = std::max(xhi, x[i]);
    ylo = std::min(ylo, y[i]), yhi = std::max(yhi, y[i]);
  }
  if (keep.empty()) xlo = 0, xhi = 1, ylo = 0, yhi = 1;
  if (yReference && std::isfinite(*yReference))
    ylo = std::min(ylo, *yReference), yhi = std::max(yhi, *yReference);
  ylo = std::min(ylo, 0.0);
  const auto [ax0, ax1] = paddedRange(xlo, xhi, 0.04);
  auto [ay0, ay1] = paddedRange(ylo, yhi, 0.05);
  if (ylo >= 0) ay0 = std::max(ay0, 0.0);
  const double right = o.width - kRight, bottom = o.height - kBottom;
  const Axis ax{ax0, ax1, static_cast<double>(kLeft), right};
  const Axis ay{ay0, ay1, bottom, static_cast<double>(kTop)};
  std::string s = openChart(o, ay) + xTicks(o, ax);
  if (keep.empty()) return s + noData(o) + "</svg>\n";

  const std::size_t stride = (keep.size() + kMaxScatterPoints - 1) / kMaxScatterPoints;
  s += "<g fill=\"" + std::string(color(0)) + "\" fill-opacity=\"0.45\">\n";
  for (std::size_t k = 0; k < keep.size(); k += stride) {
    const std::size_t i = keep[k];
    s += "<circle cx=\"" + px(ax(x[i])) + "\" cy=\"" + px(ay(y[i])) + "\" r=\"2\"/>";
    if (k % (stride * 8) == 0) s += "\n";
  }
  s += "\n</g>\n";
  if (yReference && std::isfinite(*yReference))
    s += dashedLine(kLeft, right, ay(*yReference), referenceLabel);
  if (stride > 1)
    s += "<text x=\"" + px(right - 4) + "\" y=\"" + px(kTop + 14) +
         "\" text-anchor=\"end\" font-size=\"10\" fill=\"#5b6470\">1 in " + std::to_string(stride) +
         " of " + std::to_string(keep.size()) + " records shown</text>\n";
  return s + "</svg>\n";
}

std::string ecdfChart(const std::vector<EcdfSeries>& series, const ChartOptions& o) {
  std::vector<std::vector<double>> sorted;
  for (const auto& e : series) {
    sorted.push_back(finiteValues(e.values));
    std::sort(sorted.back().begin(), sorted.back().end());
  }
  // The pooled values' range and, when there are few, the distinct ones in order, merged from
  // the sorted series: no pooled copy of 10^6 values (and its sort) for a range and 400 points.
  double lo = 0.0, hi = 0.0;
  bool any = false;
  for (const auto& v : sorted) {
    if (v.empty()) continue;
    lo = any ? std::min(lo, v.front()) : v.front();
    hi = any ? std::max(hi, v.back()) : v.back();
    any = true;
  }
  const double right = o.width - kRight, bottom = o.height - kBottom;
  const Axis ay{-0.02, 1.02, bottom, static_cast<double>(kTop)};
  if (!any) return openChart(o, ay) + noData(o) + "</svg>\n";

  const auto [ax0, ax1] = paddedRange(lo, hi, 0.03);
  const Axis ax{ax0, ax1, static_cast<double>(kLeft), right};
  std::vector<double> points;  // the distinct values, up to one more than are drawn
  std::vector<std::size_t> at(sorted.size(), 0);
  while (points.size() <= kMaxEcdfPoints) {
    bool found = false;
    double next = 0.0;
    for (std::size_t j = 0; j < sorted.size(); ++j) {
      if (at[j] < sorted[j].size() && (!found || sorted[j][at[j]] < next)) {
        next = sorted[j][at[j]];
        found = true;
      }
    }
    if (!found) break;
    points.push_back(next);
    for (std::size_t j = 0; j < sorted.size(); ++j)
      while (at[j] < sorted[j].size() && sorted[j][at[j]] == next) ++at[j];
  }
  if (points.size() > kMaxEcdfPoints) {
    points.clear();
    for (std::size_t k = 0; k < kMaxEcdfPoints; ++k)
      points.push_back(lo + (hi - lo) * static_cast<double>(k) / (kMaxEcdfPoints - 1));
  }
  std::string s = openChart(o, ay) + xTicks(o, ax);
  for (std::size_t j = 0; j < series.size(); ++j) {
    const auto& v = sorted[j];
    if (v.empty()) continue;
    const double n = static_cast<double>(v.size());
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "H" + std::string&&.
    std::string d = "M" + px(ax(ax0)) + " " + px(ay(0));
    for (double p : points) {
      const double f = static_cast<double>(std::upper_bound(v.begin(), v.end(), p) - v.begin()) / n;
      d += 'H';
      d += px(ax(p));
      d += 'V';
      d += px(ay(f));
    }
    d += 'H';
    d += px(ax(ax1));
    s += "<path d=\"" + d + "\" fill=\"none\" stroke=\"" + color(j) + "\" stroke-width=\"" +
         (j == 0 ? "2.2" : "1.6") + "\"/>\n";
    const double ly = kTop + 14 + 15 * static_cast<double>(j);
    s += "<line x1=\"" + px(kLeft + 10) + "\" x2=\"" + px(kLeft + 30) + "\" y1=\"" + px(ly - 4) +
         "\" y2=\"" + px(ly - 4) + "\" stroke=\"" + color(j) + "\" stroke-width=\"2\"/>\n";
    s += "<text x=\"" + px(kLeft + 35) + "\" y=\"" + px(ly) + "\">" + escapeHtml(series[j].label) +
         "</text>\n";
  }
  return s + "</svg>\n";
}

}  // namespace dpsynth::core::report
