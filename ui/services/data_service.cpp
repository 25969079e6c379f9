#include "ui/services/data_service.h"

#include <QFile>
#include <QFileInfo>

#include "core/data/generators.h"
#include "core/data/regular_file.h"
#include "core/data/sha256.h"
#include "ui/document/studio_document.h"
#include "ui/services/data_loader.h"
#include "ui/workers/load_jobs.h"

namespace dpsynth::ui {

namespace data = core::data;

DataService::DataService(StudioDocument* document, QObject* parent)
    : QObject(parent),
      document_(document),
      data_(new DataLoader(QStringLiteral("dpsynth data loader"), this)),
      reference_(new DataLoader(QStringLiteral("dpsynth reference loader"), this)) {
  connect(data_, &DataLoader::finished, this, [this](const LoadedData& loaded) {
    install(loaded);
    emit loadEnded(loaded.source.file, true);
  });
  connect(data_, &DataLoader::failed, this, [this](const ErrorReport& report) {
    emit errorOccurred(report);
    emit loadEnded(report.file, false);
  });
  connect(data_, &DataLoader::cancelled, this,
          [this](const QString& file) { emit loadEnded(file, false); });
  connect(reference_, &DataLoader::finished, this, [this](const LoadedData& loaded) {
    document_->setReference(loaded, restoringReference_);
  });
  connect(reference_, &DataLoader::failed, this,
          [this](const ErrorReport& report) { emit errorOccurred(report); });
}

QStringList DataService::sampleKinds() {
  QStringList kinds;
  for (const auto& k : data::sampleKinds()) kinds << QString::fromStdString(k);
  return kinds;
}

void DataService::openFile(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  data_->start(tr("Cannot load data"), absolute, dataFileJob(absolute));
}

void DataService::cancelLoad() { data_->cancel(); }

bool DataService::isLoading() const { return data_->isLoading(); }

bool DataService::loadFile(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  data_->cancel();  // a load in progress must not replace this one when it ends
  const LoadOutcome outcome =
      runLoad({0, tr("Cannot load data"), absolute, dataFileJob(absolute)}, {});
  if (outcome.error) {
    emit errorOccurred(*outcome.error);
    return false;
  }
  install(*outcome.data);
  return true;
}

bool DataService::loadSample(const QString& kind) {
  data_->cancel();
  // The job types the table; reading it is here because samples are small and come from two
  // places.
  const LoadJob job = [kind](const LoadContext& context) -> std::optional<LoadedData> {
    DataSource source;
    source.sample = kind;
    source.displayName = QObject::tr("sample: %1").arg(kind);
    std::shared_ptr<const data::CsvTable> table;
    // The repository's copy when running from a build tree (a real path for session files),
    // else the copy compiled into the program.
    const QString onDisk = QStringLiteral(DPSYNTH_RESOURCES_DIR "/samples/%1.csv").arg(kind);
    if (QFileInfo::exists(onDisk)) {
      const std::string text = data::readRegularFile(onDisk.toStdString());
      table = std::make_shared<const data::CsvTable>(data::parseCsv(text, onDisk.toStdString()));
      source.file = onDisk;
      source.sha256 = data::sha256Hex(text);
    } else {
      QFile embedded(QStringLiteral(":/dpsynth/samples/%1.csv").arg(kind));
      if (!embedded.open(QIODevice::ReadOnly)) {
        throw std::invalid_argument("unknown sample '" + kind.toStdString() + "'");
      }
      const std::string text = embedded.readAll().toStdString();
      table =
          std::make_shared<const data::CsvTable>(data::parseCsv(text, kind.toStdString() + ".csv"));
      source.sha256 = data::sha256Hex(text);
    }
    auto loaded = tableJob(std::move(table), std::move(source))(context);
    // The scale the bench uses for it too: a figure of the outcome's public size.
    if (loaded && kind == QStringLiteral("salary")) loaded->sdScale = 10000.0;
    return loaded;
  };
  const LoadOutcome outcome = runLoad({0, tr("Cannot load sample"), {}, job}, {});
  if (outcome.error) {
    emit errorOccurred(*outcome.error);
    return false;
  }
  install(*outcome.data);
  return true;
}

void DataService::install(const LoadedData& loaded) {
  reference_->cancel();  // a reference being read belongs to the previous data
  const QStringList reset = document_->installData(loaded);
  emit dataInstalled(loaded.source, reset);
}

void DataService::openReference(const QString& path, const data::DatasetSpec& spec,
                                bool restoring) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  restoringReference_ = restoring;
  reference_->start(tr("Cannot load reference data"), absolute, referenceFileJob(absolute, spec));
}

bool DataService::loadReference(const QString& path, const data::DatasetSpec& spec,
                                bool restoring) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  reference_->cancel();  // a load in progress must not replace this one when it ends
  const LoadOutcome outcome = runLoad(
      {0, tr("Cannot load reference data"), absolute, referenceFileJob(absolute, spec)}, {});
  if (outcome.error) {
    emit errorOccurred(*outcome.error);
    return false;
  }
  document_->setReference(*outcome.data, restoring);
  return true;
}

}  // namespace dpsynth::ui
