#include "ui/document/reference_dataset.h"

#include "core/data/data_error.h"
#include "core/data/design_match.h"
#include "core/models/family.h"
#include "ui/dialogs/error_report.h"

namespace dpsynth::ui {

namespace data = core::data;

namespace {

std::string referenceSpecKey(const data::DatasetSpec& spec) {
  std::string key = spec.outcome + '\x1f' + core::models::familyName(spec.family) + '\x1f' +
                    (spec.dropMissing ? "1" : "0");
  for (const auto& c : spec.covariates) key += '\x1f' + c;
  return key;
}

}  // namespace

void ReferenceDataset::set(std::shared_ptr<const data::CsvTable> table, const QString& path,
                           const data::DatasetSpec& spec,
                           std::shared_ptr<const data::Dataset> typed) {
  table_ = std::move(table);
  path_ = path;
  typedKey_.clear();
  typed_.reset();
  typedProblem_.clear();
  alignedFor_.reset();
  alignedTo_.reset();
  aligned_.reset();
  if (typed) {
    typedKey_ = referenceSpecKey(spec);
    typed_ = std::move(typed);
  }
}

void ReferenceDataset::clear() { set(nullptr, {}); }

std::shared_ptr<const data::Dataset> ReferenceDataset::datasetFor(
    const data::DatasetSpec& spec, std::string* problem,
    std::shared_ptr<const data::Dataset> data) const {
  if (!table_) {
    if (problem) problem->clear();
    return nullptr;
  }
  const std::string key = referenceSpecKey(spec);
  if (key != typedKey_) {
    typedKey_ = key;
    typed_.reset();
    typedProblem_.clear();
    try {
      typed_ = std::make_shared<const data::Dataset>(data::buildDataset(*table_, spec));
    } catch (const data::DataError& e) {
      typedProblem_ = errorReportFrom(e, {}).oneLine().toStdString();
    } catch (const std::exception& e) {
      typedProblem_ = e.what();
    }
  }
  if (!typed_ || !data) {
    if (problem) *problem = typedProblem_;
    return typed_;
  }
  if (alignedFor_ != data || alignedTo_ != typed_) {
    alignedFor_ = data;
    alignedTo_ = typed_;
    aligned_.reset();
    alignedProblem_.clear();
    if (auto matched = data::matchDesign(*typed_, *data, &alignedProblem_))
      aligned_ = std::make_shared<const data::Dataset>(std::move(*matched));
  }
  if (problem) *problem = alignedProblem_;
  return aligned_;
}

}  // namespace dpsynth::ui
