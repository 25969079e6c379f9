#include "core/data/design_match.h"

#include <algorithm>
#include <iterator>

namespace dpsynth::core::data {

namespace {

/// The distinct values of a column over a dataset's kept rows, blanks trimmed, sorted.
std::vector<std::string> levelsOf(const Dataset& dataset, const std::string& column) {
  const auto& table = dataset.source;
  const auto it = std::find(table.header.begin(), table.header.end(), column);
  if (it == table.header.end()) return {};
  const auto index = static_cast<std::size_t>(it - table.header.begin());
  std::vector<std::string> out;
  if (!table.holds(index)) return {};
  const SourceCells cells(dataset);
  for (std::size_t r = 0; r < table.size(); ++r) {
    std::string value(cells(r, index).view());
    const auto first = value.find_first_not_of(" \t");
    const auto last = value.find_last_not_of(" \t");
    value = first == std::string::npos ? std::string() : value.substr(first, last - first + 1);
    out.push_back(std::move(value));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool isCategorical(const Dataset& dataset, const std::string& column) {
  const std::string prefix = column + "=";
  for (const auto& name : dataset.designNames)
    if (name.rfind(prefix, 0) == 0) return true;
  return false;
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

}  // namespace

std::optional<Dataset> matchDesign(const Dataset& reference, const Dataset& data,
                                   std::string* problem) {
  if (reference.designNames == data.designNames) return reference;
  std::string problems;
  const auto add = [&problems](const std::string& text) {
    problems += (problems.empty() ? "" : "; ") + text;
  };
  for (const auto& covariate : data.covariateNames) {
    const bool inData = isCategorical(data, covariate);
    const bool inReference = isCategorical(reference, covariate);
    if (inData != inReference) {
      add("covariate '" + covariate + "' is " + (inData ? "text" : "numbers") +
          " in the data but " + (inReference ? "text" : "numbers") + " in the reference");
      continue;
    }
    if (!inData) continue;
    const auto dataLevels = levelsOf(data, covariate);
    const auto referenceLevels = levelsOf(reference, covariate);
    if (dataLevels == referenceLevels) continue;
    std::vector<std::string> onlyData, onlyReference;
    std::set_difference(dataLevels.begin(), dataLevels.end(), referenceLevels.begin(),
                        referenceLevels.end(), std::back_inserter(onlyData));
    std::set_difference(referenceLevels.begin(), referenceLevels.end(), dataLevels.begin(),
                        dataLevels.end(), std::back_inserter(onlyReference));
    add("covariate '" + covariate + "': levels only in the data: " + joinNames(onlyData) +
        "; only in the reference: " + joinNames(onlyReference));
  }
  if (!problems.empty()) {
    if (problem) *problem = problems;
    return std::nullopt;
  }
  // The same covariates with the same levels: each of the data's design columns from the
  // reference's, a dummy of the reference's first level as one minus its other dummies.
  Dataset matched = reference;
  const auto n = reference.X.rows();
  matched.X.resize(n, static_cast<Eigen::Index>(data.designNames.size()));
  const auto columnOf = [&reference](const std::string& name) -> Eigen::Index {
    const auto it = std::find(reference.designNames.begin(), reference.designNames.end(), name);
    return it == reference.designNames.end() ? -1
                                             : Eigen::Index(it - reference.designNames.begin());
  };
  for (std::size_t j = 0; j < data.designNames.size(); ++j) {
    const std::string& name = data.designNames[j];
    const auto col = static_cast<Eigen::Index>(j);
    if (const Eigen::Index k = columnOf(name); k >= 0) {
      matched.X.col(col) = reference.X.col(k);
      continue;
    }
    const auto eq = name.find('=');
    if (eq == std::string::npos) {
      if (problem) *problem = "the reference has no design column '" + name + "'";
      return std::nullopt;
    }
    const std::string prefix = name.substr(0, eq + 1);
    Eigen::VectorXd others = Eigen::VectorXd::Zero(n);
    for (std::size_t k = 0; k < reference.designNames.size(); ++k)
      if (reference.designNames[k].rfind(prefix, 0) == 0)
        others += reference.X.col(static_cast<Eigen::Index>(k));
    matched.X.col(col) = Eigen::VectorXd::Ones(n) - others;
  }
  matched.designNames = data.designNames;
  if (problem) problem->clear();
  return matched;
}

}  // namespace dpsynth::core::data
