#include "core/pipeline/bundle_writer.h"

#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "core/data/csv_writer.h"
#include "core/data/readstat_writer.h"
#include "core/data/sha256.h"
#include "core/data/stat_format.h"
#include "core/data/value_parsing.h"
#include "core/exec/cancellation.h"

namespace dpsynth::core::pipeline {

namespace fs = std::filesystem;

namespace {

/// formatCsv's line rules: fields quoted where needed, a lone empty field written as "".
void appendLine(std::string& text, const std::vector<std::string_view>& fields, char delimiter) {
  if (fields.size() == 1 && fields[0].empty()) {
    text += "\"\"";
  } else {
    for (std::size_t k = 0; k < fields.size(); ++k) {
      if (k > 0) text += delimiter;
      text += data::quoteCsvField(fields[k], delimiter);
    }
  }
  text += '\n';
}

}  // namespace

namespace {

/// Calls `row(fields)` for every record of synthetic dataset j, in its released order (the
/// rows of syntheticRows): what the CSV text and a statistical file are both made of.
template <typename RowFunction>
void forEachSyntheticRow(const data::Dataset& dataset, const Eigen::VectorXd& synthetic,
                         random::Seed seed, int j, const std::vector<std::size_t>* sourceRows,
                         const std::stop_token& stop, RowFunction&& row) {
  constexpr std::size_t kBlock = std::size_t{1} << 14;
  const std::size_t n = static_cast<std::size_t>(synthetic.size());
  checkSourceRows(dataset, n, sourceRows);
  const std::vector<std::string> header = releasedColumns(dataset);
  std::vector<std::size_t> columns;
  for (const auto& name : header) columns.push_back(dataset.source.columnIndex(name));
  const std::size_t outcome = dataset.source.columnIndex(dataset.outcomeName);
  const bool integer = models::isCountFamily(dataset.family);
  const std::vector<std::size_t> order = syntheticRowOrder(n, seed, j);
  std::vector<std::string_view> fields(columns.size());
  const data::SourceCells source(dataset);
  std::vector<data::CellText> cells(columns.size());  // the covariates' texts, each in place
  std::string value;
  for (std::size_t k = 0; k < n; ++k) {
    if (k % kBlock == 0) exec::throwIfStopped(stop);
    const std::size_t i = order[k];
    const std::size_t input = sourceRows ? (*sourceRows)[i] : i;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (columns[c] == outcome) {
        const double v = synthetic[static_cast<Eigen::Index>(i)];
        value = data::formatNumber(integer ? std::round(v) : v);
        fields[c] = value;
      } else {
        cells[c] = source(input, columns[c]);
        fields[c] = cells[c].view();
      }
    }
    row(fields);
  }
}

/// What the input file says about the released columns (empty for a CSV). The outcome keeps
/// its variable label and value labels, but its cells are synthesized codes, not label text.
std::vector<data::ColumnInfo> releasedColumnInfo(const data::Dataset& dataset) {
  std::vector<data::ColumnInfo> infos;
  if (dataset.source.columns.empty()) return infos;
  for (const auto& name : releasedColumns(dataset)) {
    const std::size_t c = dataset.source.columnIndex(name);
    data::ColumnInfo info = *dataset.source.info(c);
    if (name == dataset.outcomeName) {
      info.labelsAreLevels = false;
      info.kind = data::ValueKind::number;
    }
    infos.push_back(std::move(info));
  }
  return infos;
}

}  // namespace

namespace {

/// The CSV text of synthetic dataset j (syntheticCsvText), handed to `put` in pieces of about
/// 1 MiB.
void produceSyntheticCsv(const data::Dataset& dataset, const Eigen::VectorXd& synthetic,
                         random::Seed seed, int j, const std::vector<std::size_t>* sourceRows,
                         const std::stop_token& stop, const data::TextSink& put) {
  constexpr std::size_t kPieceBytes = std::size_t{1} << 20;
  const char delimiter = dataset.source.delimiter;
  if (delimiter == '"' || delimiter == '\r' || delimiter == '\n')
    throw std::invalid_argument("formatCsv: the delimiter cannot be a quote or a line break");
  const std::vector<std::string> header = releasedColumns(dataset);
  std::string text;
  text.reserve(kPieceBytes + 4096);
  appendLine(text, std::vector<std::string_view>(header.begin(), header.end()), delimiter);
  forEachSyntheticRow(dataset, synthetic, seed, j, sourceRows, stop,
                      [&](const std::vector<std::string_view>& fields) {
                        appendLine(text, fields, delimiter);
                        if (text.size() >= kPieceBytes) {
                          put(text);
                          text.clear();
                        }
                      });
  put(text);
}

}  // namespace

std::string syntheticCsvText(const data::Dataset& dataset, const Eigen::VectorXd& synthetic,
                             random::Seed seed, int j, const std::vector<std::size_t>* sourceRows,
                             const std::stop_token& stop) {
  std::string text;
  produceSyntheticCsv(dataset, synthetic, seed, j, sourceRows, stop,
                      [&](std::string_view piece) { text += piece; });
  return text;
}

std::string syntheticFileBytes(const std::string& path, const data::Dataset& dataset,
                               const Eigen::VectorXd& synthetic, random::Seed seed, int j,
                               const std::vector<std::size_t>* sourceRows,
                               const std::stop_token& stop) {
  const auto format = data::statFormatOf(path);
  if (!format) return syntheticCsvText(dataset, synthetic, seed, j, sourceRows, stop);
  const std::vector<std::string> header = releasedColumns(dataset);
  data::CsvRows rows(header.size());
  rows.reserve(static_cast<std::size_t>(synthetic.size()));
  forEachSyntheticRow(dataset, synthetic, seed, j, sourceRows, stop,
                      [&](const std::vector<std::string_view>& fields) {
                        for (const auto f : fields) rows.appendCell(f);
                        rows.endRecord();
                      });
  auto bytes = data::formatStatFile(*format, path, header, releasedColumnInfo(dataset), rows, stop);
  if (!bytes) throw exec::Cancelled();
  return std::move(*bytes);
}

namespace {

/// The copied covariates are known before any sampling: the cells that decide each released
/// column's type and width in a statistical file (its longest, and one that is not a number)
/// stand for all of them, so that a Stata string too wide is refused before the run, not after
/// it. The outcome stands as a number.
data::CsvRows decidingCells(const data::Dataset& dataset, const std::vector<std::string>& header) {
  const std::size_t outcome = dataset.source.columnIndex(dataset.outcomeName);
  const data::SourceCells source(dataset);
  std::vector<std::string> longest(header.size()), text(header.size(), "0");
  for (std::size_t c = 0; c < header.size(); ++c) {
    const std::size_t column = dataset.source.columnIndex(header[c]);
    if (column == outcome) {
      longest[c] = "0";
      continue;
    }
    bool textFound = false;
    for (std::size_t r = 0; r < dataset.source.size(); ++r) {
      const data::CellText cell = source(r, column);
      const std::string_view v = cell.view();
      if (v.size() > longest[c].size()) longest[c] = std::string(v);
      if (!textFound && !data::isMissingValue(v) && !data::parseNumber(v)) {
        text[c] = std::string(v);
        textFound = true;
      }
    }
  }
  data::CsvRows probe(header.size());
  for (const auto* row : {&longest, &text}) {
    for (const auto& cell : *row) probe.appendCell(cell);
    probe.endRecord();
  }
  return probe;
}

/// checkSyntheticOutput; `cells`: the covariates' cells too (decidingCells), else names and
/// labels alone.
void checkOutput(const std::string& path, const data::Dataset& dataset, bool cells) {
  const auto format = data::statFormatOf(path);
  if (!format) return;
  if (!data::isWritableStatFormat(*format))
    throw std::invalid_argument(path +
                                ": dpsynth writes synthetic data as CSV, SPSS .sav, "
                                "Stata .dta or SAS .xpt, not as " +
                                data::statFormatName(*format) + "; choose one of those");
  const std::vector<std::string> header = releasedColumns(dataset);
  if (!cells) {
    data::checkStatColumns(*format, path, header, releasedColumnInfo(dataset));
    return;
  }
  const data::CsvRows probe = decidingCells(dataset, header);
  data::checkStatColumns(*format, path, header, releasedColumnInfo(dataset), &probe);
}

}  // namespace

void checkSyntheticOutput(const std::string& path, const data::Dataset& dataset) {
  checkOutput(path, dataset, true);
}

SyntheticBundleWriter::SyntheticBundleWriter(const std::string& csvPath,
                                             const data::Dataset& dataset,
                                             const MechanismResult& result, int m,
                                             random::Seed seed, bool staged)
    : dataset_(dataset), result_(result), seed_(seed), staged_(staged) {
  if (m < 1) throw std::invalid_argument("no synthetic datasets to write");
  if (!result.refusals.empty()) throw std::invalid_argument(refusalMessage(result));
  // Names and labels only: each file's own cells are checked as it is formatted, so the scan of
  // every covariate cell is not done again after the run.
  checkOutput(csvPath, dataset, false);
  std::error_code ec;
  if (!dataset.file.empty() && fs::exists(csvPath, ec) &&
      fs::equivalent(csvPath, dataset.file, ec)) {
    throw std::invalid_argument("refusing to overwrite the input data file " + dataset.file +
                                ": choose another output path");
  }
  bundle_ = syntheticBundlePaths(csvPath, m);
}

SyntheticBundleWriter::~SyntheticBundleWriter() {
  if (finished_) return;
  std::error_code ec;
  for (const auto& f : created_) fs::remove(f, ec);
}

void SyntheticBundleWriter::add(const Eigen::VectorXd& synthetic, const std::stop_token& stop) {
  const std::size_t j = digests_.size();
  if (j >= bundle_.csvFiles.size())
    throw std::logic_error("SyntheticBundleWriter: more datasets than announced");
  const std::string& path = bundle_.csvFiles[j];
  // The digest is of the very bytes written, so the sidecar vouches for this file only. A CSV
  // is hashed and written piece by piece as it is formatted (10^6 records are ~100 MB of text,
  // never whole in memory); a statistical file is made whole by its writer.
  data::Sha256 hasher;
  data::TextProducer produce;
  std::string bytes;
  if (data::statFormatOf(path)) {
    bytes = syntheticFileBytes(path, dataset_, synthetic, seed_, static_cast<int>(j),
                               result_.sourceRows.get(), stop);
    produce = [&](const data::TextSink& put) {
      constexpr std::size_t kPiece = std::size_t{1} << 20;
      for (std::size_t at = 0; at < bytes.size(); at += kPiece) {
        exec::throwIfStopped(stop);
        const std::string_view piece = std::string_view(bytes).substr(at, kPiece);
        hasher.update(piece);
        put(piece);
      }
    };
  } else {
    produce = [&](const data::TextSink& put) {
      produceSyntheticCsv(dataset_, synthetic, seed_, static_cast<int>(j), result_.sourceRows.get(),
                          stop, [&](std::string_view piece) {
                            hasher.update(piece);
                            put(piece);
                          });
    };
  }
  exec::throwIfStopped(stop);
  std::error_code ec;
  const bool existed = fs::exists(path, ec);
  if (staged_) {
    data::writeStagedTextInPieces(path, produce);
  } else {
    data::writeTextAtomicInPieces(path, produce);
  }
  if (!existed) created_.push_back(path);
  digests_.push_back(hasher.hexDigest());
}

SyntheticBundle SyntheticBundleWriter::finish() {
  if (digests_.size() != bundle_.csvFiles.size())
    throw std::logic_error("SyntheticBundleWriter: finish() before every dataset was added");
  std::vector<std::string> names;
  for (const auto& f : bundle_.csvFiles) names.push_back(fs::path(f).filename().string());
  const nlohmann::json side =
      sidecarJson(dataset_, result_, static_cast<int>(digests_.size()), seed_, names, digests_);
  std::error_code ec;
  const bool existed = fs::exists(bundle_.sidecar, ec);
  if (staged_) {
    data::writeStagedText(bundle_.sidecar, side.dump(2) + "\n");
  } else {
    data::writeTextAtomic(bundle_.sidecar, side.dump(2) + "\n");
  }
  if (!existed) created_.push_back(bundle_.sidecar);
  finished_ = true;
  return bundle_;
}

}  // namespace dpsynth::core::pipeline
