#include "core/study/frontier.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "core/study/study_runner.h"
#include "core/summary/results_rows.h"

namespace dpsynth::core::study {
namespace {

int guaranteeRank(pipeline::Guarantee g) {
  switch (g) {
    case pipeline::Guarantee::none:
      return 0;
    case pipeline::Guarantee::aDP:
      return 1;
    case pipeline::Guarantee::DP:
      return 2;
  }
  return 0;
}

pipeline::Guarantee parseGuarantee(const std::string& text) {
  if (text == "DP") return pipeline::Guarantee::DP;
  if (text == "aDP") return pipeline::Guarantee::aDP;
  return pipeline::Guarantee::none;
}

}  // namespace

std::vector<std::string> frontierMeasures() {
  const auto& header = summary::resultsHeader();
  std::vector<std::string> out;
  auto it = std::find(header.begin(), header.end(), "truncated");
  for (++it; it != header.end(); ++it)
    if (*it != "marginal_only") out.push_back(*it);
  return out;
}

std::vector<FrontierPoint> frontierPoints(const std::vector<std::vector<std::string>>& rows,
                                          const std::string& measure) {
  const auto& header = studyRowHeader();
  for (const auto& row : rows)
    if (row.size() != header.size())
      throw std::invalid_argument("frontier: a row has " + std::to_string(row.size()) +
                                  " fields, the header " + std::to_string(header.size()));
  return frontierPoints(studyRowsFromCsv(rows), measure);
}

std::vector<FrontierPoint> frontierPoints(const std::vector<StudyRow>& rows,
                                          const std::string& measure) {
  const auto measures = frontierMeasures();
  if (std::find(measures.begin(), measures.end(), measure) == measures.end())
    throw std::invalid_argument("frontier: '" + measure + "' is not a utility measure");

  struct Cell {
    const StudyRow* first = nullptr;
    std::vector<double> values, realised;
    int guaranteeRank = 2;
    int bestRank = 0;
    std::size_t withoutGuarantee = 0;
    bool marginalOnly = false;
  };
  std::vector<int> order;
  std::map<int, Cell> cells;
  for (const auto& row : rows) {
    if (!row.cell) continue;  // the confidential rows
    auto [it, fresh] = cells.try_emplace(*row.cell);
    Cell& cell = it->second;
    if (fresh) {
      order.push_back(*row.cell);
      cell.first = &row;
    }
    if (const auto v = row.results.number(measure); v && !std::isnan(*v)) cell.values.push_back(*v);
    if (row.results.epsilon) cell.realised.push_back(*row.results.epsilon);
    const int rank = guaranteeRank(parseGuarantee(row.results.guarantee));
    cell.guaranteeRank = std::min(cell.guaranteeRank, rank);
    cell.bestRank = std::max(cell.bestRank, rank);
    if (rank == 0) ++cell.withoutGuarantee;
    cell.marginalOnly = cell.marginalOnly || row.results.marginalOnly;
  }

  std::vector<FrontierPoint> points;
  for (const auto& key : order) {
    const Cell& cell = cells.at(key);
    if (cell.values.empty()) continue;
    const CellKeys& keys = cell.first->keys;
    FrontierPoint p;
    p.cell = key;
    p.mechanism = keys.mechanism;
    p.epsilon = keys.epsilon;
    p.c = keys.c;
    p.g = keys.g;
    p.hasDownscale = keys.hasDownscale;
    p.downscale = keys.downscale;
    p.value = summarizeValues(measure, cell.values);
    if (!cell.realised.empty()) p.guaranteeEpsilon = summarizeValues("epsilon", cell.realised);
    if (p.epsilon) {
      p.x = *p.epsilon;
    } else if (!cell.realised.empty()) {
      p.x = p.guaranteeEpsilon.median;
    } else {
      continue;  // no ε at all (every fit failed): nowhere on the ε axis
    }
    for (auto g : {pipeline::Guarantee::none, pipeline::Guarantee::aDP, pipeline::Guarantee::DP}) {
      if (guaranteeRank(g) == cell.guaranteeRank) p.guarantee = g;
      if (guaranteeRank(g) == cell.bestRank) p.bestGuarantee = g;
    }
    // A mechanism that claims no guarantee (unweighted, pipeline::guaranteeOf) has not failed
    // when its runs have none; any other has (its DP stage failed the diagnostics).
    bool claims = true;
    try {
      claims =
          pipeline::guaranteeOf(pipeline::parseMechanism(p.mechanism)) != pipeline::Guarantee::none;
    } catch (const std::invalid_argument&) {
    }
    p.withoutGuarantee = claims ? cell.withoutGuarantee : 0;
    p.marginalOnly = cell.marginalOnly;
    p.series = p.mechanism;
    if (p.epsilon) {
      std::string tuning;
      if (p.c) tuning += "c=" + p.cText();
      if (p.g) tuning += (tuning.empty() ? "" : ", ") + std::string("g=") + p.gText();
      if (p.hasDownscale)
        tuning += (tuning.empty() ? "" : ", ") + std::string("d=") + p.downscaleText();
      if (!tuning.empty()) p.series += " (" + tuning + ")";
    }
    points.push_back(std::move(p));
  }
  // Within a series by x; series keep the order of their first point.
  std::vector<std::string> seriesOrder;
  for (const auto& p : points)
    if (std::find(seriesOrder.begin(), seriesOrder.end(), p.series) == seriesOrder.end())
      seriesOrder.push_back(p.series);
  std::stable_sort(points.begin(), points.end(),
                   [&](const FrontierPoint& a, const FrontierPoint& b) {
                     const auto ia = std::find(seriesOrder.begin(), seriesOrder.end(), a.series);
                     const auto ib = std::find(seriesOrder.begin(), seriesOrder.end(), b.series);
                     if (ia != ib) return ia < ib;
                     return a.x < b.x;
                   });
  return points;
}

std::string frontierGuaranteeLabel(pipeline::Guarantee guarantee) {
  switch (guarantee) {
    case pipeline::Guarantee::DP:
      return "strict DP";
    case pipeline::Guarantee::aDP:
      return "aDP";
    case pipeline::Guarantee::none:
      return "no guarantee";
  }
  return "no guarantee";
}

}  // namespace dpsynth::core::study
