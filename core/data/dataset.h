#pragma once
/// A typed, validated dataset ready for a model: outcome vector y and design matrix X (with an
/// intercept column first). Built from a CsvTable (a CSV's, or an SPSS, Stata or SAS file's:
/// data_file.h) by choosing columns by name.
#include <Eigen/Dense>
#include <cstddef>
#include <map>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/csv_table.h"
#include "core/data/source_columns.h"
#include "core/models/family.h"

namespace dpsynth::core::data {

struct DatasetSpec {
  std::string outcome;                  ///< outcome column name
  std::vector<std::string> covariates;  ///< public covariate column names (may be empty)
  models::Family family = models::Family::normal;
  bool dropMissing = false;  ///< drop rows with an empty/NA field in a used column
  /// The reference level of categorical covariates (column → level), chosen by the user; a
  /// categorical covariate not named here takes its first level in label order (a labelled
  /// column) or in sorted order (text). Either way the design never depends on the order of
  /// the records.
  std::map<std::string, std::string> referenceLevels;
  /// The number of records is confidential: add-remove neighbours (with dropMissing the count
  /// of complete records is, under either relation). An intercept-only dataset may then hold
  /// fewer than 2 records, down to none: refusing it would tell a database from its neighbour
  /// with one record more (SPEC §0), so it runs, its fit the prior's. A model with covariates
  /// still needs 2: its synthetic records copy the covariates of kept records, which already
  /// show how many there are.
  bool countConfidential = false;
};

struct Dataset {
  std::string file;
  std::string outcomeName;
  models::Family family = models::Family::normal;
  Eigen::VectorXd y;                     ///< n outcomes
  Eigen::MatrixXd X;                     ///< n × K design, column 0 is the intercept (all 1)
  std::vector<std::string> designNames;  ///< K names: "(Intercept)", "age", "gender=F", ...
  /// The covariate columns the user declared public, as named in the file: with the outcome,
  /// the only columns a synthetic file may hold (SPEC §0).
  std::vector<std::string> covariateNames;
  std::vector<std::size_t> fileLines;  ///< 1-based file line of each kept record
  std::size_t droppedRows = 0;         ///< rows removed by dropMissing
  /// Built with dropMissing: the records are the complete ones, and their count is
  /// confidential even when none was dropped (SPEC §0; core/privacy/size_release.h).
  bool completeCasesOnly = false;
  /// The declared covariates' cells of the kept records, typed (numbers, or level codes) yet
  /// each giving back its text exactly, from which synthetic files take the covariates as they
  /// are; with the input's header, delimiter and column information. CONFIDENTIAL.
  SourceTable source;

  std::size_t size() const { return static_cast<std::size_t>(y.size()); }
  bool interceptOnly() const { return X.cols() == 1; }
};

/// A Dataset's source cells as text. A numeric covariate's numbers are kept once, in the
/// design matrix (its column named as the covariate): the source keeps only how each cell was
/// written. Resolved once, then read per cell; valid while the dataset lives, unchanged.
class SourceCells {
 public:
  /// Throws std::logic_error when a numeric covariate has no design column of its name.
  explicit SourceCells(const Dataset& dataset);
  std::size_t size() const { return dataset_.source.size(); }
  const Dataset& dataset() const { return dataset_; }
  /// The text of record `row`'s cell in column `column` (a declared covariate; std::logic_error
  /// for another column).
  CellText operator()(std::size_t row, std::size_t column) const;

 private:
  const Dataset& dataset_;
  std::vector<Eigen::Index> designColumn_;  ///< per source column; -1 unless numeric
};

/// Validates and types the chosen columns. Throws DataError (file, line, column, problem, hint)
/// for: unknown columns; non-numeric outcome; missing values (unless dropMissing); negative or
/// non-integer counts for poisson/negbin; values outside (0,1) for beta (with the count of
/// offending values and a suggested transform); fewer than 2 records; constant outcome.
/// Text covariates become dummy columns, their levels in sorted (byte) order; a column whose
/// value labels are its levels (ColumnInfo::labelsAreLevels, from an SPSS or Stata file) is
/// categorical with its levels in label order. The reference (no dummy) is the level named in
/// spec.referenceLevels, else the first level in that order; numeric covariates are used as they
/// are. Also refused: a reference level for a column that is not a covariate, for a numeric
/// covariate, or that the column does not hold. A labelled outcome is read as its
/// codes; a date or time outcome (ColumnInfo::kind) is refused. Also refused: a covariate whose
/// only non-numbers are numbers out of a double's range ("1e400"), and a text covariate with more
/// than max(50, n/2) levels (an identifier would give one dummy per record). Values and names
/// in messages are shortened and escaped (quoteForMessage).
Dataset buildDataset(const CsvTable& table, const DatasetSpec& spec);
/// The same for large tables, honouring a stop request (checked every 65536 records of each
/// pass over the table): nullopt when it was requested. Errors are thrown as above.
std::optional<Dataset> buildDataset(const CsvTable& table, const DatasetSpec& spec,
                                    std::stop_token stop);

/// A dataset straight from numbers, without CSV text (generated replicates, benchmarks): the
/// outcome y, the design X (n × K, column 0 all ones) and its K names; covariateNames are the
/// design names after the intercept. source stays empty, so no covariate text can be copied
/// from it. Throws std::invalid_argument for inconsistent sizes, a missing intercept or
/// non-finite values. The checks pass over 10^7 records in blocks, looking at `stop` between
/// them (exec::Cancelled).
Dataset numericDataset(std::string outcomeName, models::Family family, Eigen::VectorXd y,
                       Eigen::MatrixXd X, std::vector<std::string> designNames,
                       const std::stop_token& stop = {});

/// Suggests a family from the outcome column: non-negative integers → negbin, all values in
/// (0,1) → beta, otherwise normal. Non-numeric values are ignored.
models::Family suggestFamily(const CsvTable& table, const std::string& outcome);
/// The same, or nothing when no value is a number (missing and text values do not count):
/// suggestFamily's normal is then a default, not a suggestion from the values.
std::optional<models::Family> familyFromValues(const CsvTable& table, const std::string& outcome);
/// True when the column holds a number (familyFromValues has something to go on).
bool holdsANumber(const CsvTable& table, const std::string& column);

}  // namespace dpsynth::core::data
