#pragma once
/// Writing a synthetic-data bundle (export.h) one dataset at a time: an export of m datasets of
/// 10^6 records used to hold all m in memory and format each as a table of strings, with no
/// way to stop it. Here each dataset is formatted in blocks of rows with a stop check between
/// blocks, written, and forgotten; only its digest and summary are kept.
#include <Eigen/Dense>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/export.h"
#include "core/pipeline/stage.h"
#include "core/random/seed.h"

namespace dpsynth::core::pipeline {

/// The text of synthetic dataset j (0-based) as a CSV file: exactly
/// data::formatCsv(releasedColumns(dataset), syntheticRows(dataset, synthetic, seed, j,
/// sourceRows), delimiter), built in blocks of rows. Throws exec::Cancelled when `stop` is
/// requested.
std::string syntheticCsvText(const data::Dataset& dataset, const Eigen::VectorXd& synthetic,
                             random::Seed seed, int j,
                             const std::vector<std::size_t>* sourceRows = nullptr,
                             const std::stop_token& stop = {});

/// The bytes of synthetic dataset j for a file at `path`: syntheticCsvText, or, when the path
/// ends in .sav, .dta or .xpt, the same records as an SPSS, Stata or SAS transport file
/// (data::formatStatFile) carrying the variable labels and value labels the input file gave the
/// released columns (the outcome and the declared covariates; never a dropped column's).
/// Throws exec::Cancelled when `stop` is requested.
std::string syntheticFileBytes(const std::string& path, const data::Dataset& dataset,
                               const Eigen::VectorXd& synthetic, random::Seed seed, int j,
                               const std::vector<std::size_t>* sourceRows = nullptr,
                               const std::stop_token& stop = {});

/// Checks before any work that synthetic data can be written at `path`: a statistical
/// extension dpsynth does not write (.zsav, .por, .sas7bdat) is refused with
/// std::invalid_argument, and the released columns' names, labels and copied covariate values
/// (a Stata string of at most 2045 bytes) must suit a .sav, .dta or .xpt file (data::WriteError
/// naming the path otherwise). Nothing to check for CSV.
void checkSyntheticOutput(const std::string& path, const data::Dataset& dataset);

class SyntheticBundleWriter {
 public:
  /// m datasets for csvPath (names as syntheticBundlePaths), as CSV or in the statistical
  /// format its extension names (syntheticFileBytes; checkSyntheticOutput first). Refuses
  /// (std::invalid_argument) to write over the input data file, and a mechanism whose release was
  /// refused. staged: the files go into a private staging folder that is flushed and moved into
  /// place as a whole (data::writeStagedText); otherwise each file is written atomically where it
  /// belongs.
  SyntheticBundleWriter(const std::string& csvPath, const data::Dataset& dataset,
                        const MechanismResult& result, int m, random::Seed seed,
                        bool staged = false);
  /// Removes the files this writer created unless finish() succeeded.
  ~SyntheticBundleWriter();
  SyntheticBundleWriter(const SyntheticBundleWriter&) = delete;
  SyntheticBundleWriter& operator=(const SyntheticBundleWriter&) = delete;

  /// Writes the next dataset (atomically). Throws exec::Cancelled when `stop` is requested
  /// (nothing of that dataset is written).
  void add(const Eigen::VectorXd& synthetic, const std::stop_token& stop = {});
  /// The sidecar, with the digest of every dataset written; all m must have been added.
  SyntheticBundle finish();

  const SyntheticBundle& paths() const { return bundle_; }

 private:
  const data::Dataset& dataset_;
  const MechanismResult& result_;
  random::Seed seed_;
  bool staged_;
  SyntheticBundle bundle_;
  std::vector<std::string> digests_;
  std::vector<std::string> created_;
  bool finished_ = false;
};

}  // namespace dpsynth::core::pipeline
