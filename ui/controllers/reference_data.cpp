#include "ui/controllers/reference_data.h"

#include <QFileInfo>

#include "core/data/data_error.h"
#include "core/models/family.h"

namespace dpsynth::ui {

namespace data = core::data;

namespace {

std::string specKey(const data::DatasetSpec& spec) {
  std::string key = spec.outcome + '\x1f' + core::models::familyName(spec.family) + '\x1f' +
                    (spec.dropMissing ? "1" : "0");
  for (const auto& c : spec.covariates) key += '\x1f' + c;
  return key;
}

}  // namespace

ReferenceData::ReferenceData(QObject* parent) : QObject(parent) {}

bool ReferenceData::load(const QString& path, const data::DatasetSpec& spec) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  try {
    auto table = std::make_shared<const data::CsvTable>(data::readCsv(absolute.toStdString()));
    auto typed = std::make_shared<const data::Dataset>(data::buildDataset(*table, spec));
    table_ = std::move(table);
    path_ = absolute;
    typedKey_ = specKey(spec);
    typed_ = std::move(typed);
    typedProblem_.clear();
  } catch (const data::DataError& e) {
    emit errorOccurred(errorReportFrom(e, tr("Cannot load reference data")));
    return false;
  } catch (const std::exception& e) {
    emit errorOccurred(errorReportFrom(e, tr("Cannot load reference data"), absolute));
    return false;
  }
  emit changed();
  return true;
}

void ReferenceData::clear() {
  if (!table_ && path_.isEmpty()) return;
  table_.reset();
  path_.clear();
  typedKey_.clear();
  typed_.reset();
  typedProblem_.clear();
  emit changed();
}

std::shared_ptr<const data::Dataset> ReferenceData::datasetFor(const data::DatasetSpec& spec,
                                                               std::string* problem) const {
  if (!table_) return nullptr;
  const std::string key = specKey(spec);
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
  if (problem) *problem = typedProblem_;
  return typed_;
}

}  // namespace dpsynth::ui
