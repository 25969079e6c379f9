#include "ui/controllers/reference_data.h"

#include <QFileInfo>

#include "core/data/data_error.h"
#include "core/models/family.h"
#include "ui/workers/data_loader.h"
#include "ui/workers/load_jobs.h"

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

ReferenceData::ReferenceData(QObject* parent)
    : QObject(parent), loader_(new DataLoader(QStringLiteral("dpsynth reference loader"), this)) {
  connect(loader_, &DataLoader::finished, this, [this](const LoadedData& loaded) {
    install(loaded);
  });
  connect(loader_, &DataLoader::failed, this,
          [this](const ErrorReport& report) { emit errorOccurred(report); });
}

bool ReferenceData::load(const QString& path, const data::DatasetSpec& spec) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  loader_->cancel();  // a load in progress must not replace this one when it ends
  const LoadOutcome outcome = runLoad(
      {0, tr("Cannot load reference data"), absolute, referenceFileJob(absolute, spec)}, {});
  if (outcome.error) {
    emit errorOccurred(*outcome.error);
    return false;
  }
  install(*outcome.data);
  return true;
}

void ReferenceData::open(const QString& path, const data::DatasetSpec& spec) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  loader_->start(tr("Cannot load reference data"), absolute, referenceFileJob(absolute, spec));
}

void ReferenceData::install(const LoadedData& loaded) {
  table_ = loaded.table;
  path_ = loaded.source.file;
  typedKey_ = specKey(loaded.spec);
  typed_ = loaded.dataset;
  typedProblem_.clear();
  emit changed();
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
