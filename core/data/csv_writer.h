#pragma once
/// Writing CSV and other text outputs so that a crash, a full disk or a cancelled run never leaves
/// a half-written file behind: everything goes to a temporary file in the target's folder, which
/// is renamed over the target only once it is complete (a rename within one file system is
/// atomic on POSIX systems).
#include <functional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/csv_rows.h"
#include "core/error.h"

namespace dpsynth::core::data {

/// An output that cannot be written: a full disk, a read-only folder, a path through a file or a
/// symbolic-link loop. The user's environment, not a fault of dpsynth: bad input (exit 2), with
/// one line naming the path. Writers into a hidden staging folder rethrow it with the path the
/// user asked for (StagedFolder::userPath), never the staging folder's.
class WriteError : public core::Error {
 public:
  WriteError(std::string path, std::string reason)
      : Error(Kind::badInput, "cannot write '" + path + "': " + reason),
        path_(std::move(path)),
        reason_(std::move(reason)) {}
  const std::string& path() const { return path_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string path_;
  std::string reason_;
};

/// The shortest decimal text that reads back to exactly `value` (std::to_chars, C locale):
/// integers without ".0", "1e-05" style exponents when shorter. -0 is written "0", NaN as an
/// empty field (missing in R, Stata, Excel and dpsynth), infinities as "Inf" and "-Inf".
std::string formatNumber(double value);

/// One field as RFC 4180 wants it: quoted (with quotes doubled) when it contains the delimiter
/// or any other that readCsv detects (',', ';', tab), a double quote, CR or LF, or starts or
/// ends with a space or tab (readers trim those). So readCsv reads formatCsv's text back to the
/// same table whatever the delimiter (header names without surrounding blanks).
std::string quoteCsvField(std::string_view field, char delimiter = ',');

/// The whole CSV text: header line then one line per row, "\n" line ends, UTF-8 without BOM.
/// An empty field in a one-column table is written as "" so that the line is not blank.
/// Throws std::invalid_argument when a row's length differs from the header's or the delimiter
/// is a quote, CR or LF.
std::string formatCsv(const std::vector<std::string>& header,
                      const std::vector<std::vector<std::string>>& rows, char delimiter = ',');
void writeCsvAtomic(const std::string& path, const std::vector<std::string>& header,
                    const CsvRows& rows, char delimiter = ',');
/// The same for a table's rows (CsvTable::rows).
/// `stop` is checked every 2^14 rows (exec::Cancelled).
std::string formatCsv(const std::vector<std::string>& header, const CsvRows& rows,
                      char delimiter = ',', const std::stop_token& stop = {});

/// formatCsv written atomically to `path` (see writeTextAtomic).
void writeCsvAtomic(const std::string& path, const std::vector<std::string>& header,
                    const std::vector<std::vector<std::string>>& rows, char delimiter = ',');

/// Writes `text` to a temporary file `.NAME.tmp-XXXXXX` beside `path`, flushes it to disk and
/// renames it to `path`. On any failure the temporary file is removed, whatever was at `path`
/// is left untouched, and WriteError names the path and the reason. A replaced file keeps its
/// permissions; a new one gets the usual 0666 minus the umask.
void writeTextAtomic(const std::string& path, std::string_view text);

/// Writes `text` to a new file `path` inside a private staging folder, without a temporary file
/// or a flush of its own: the folder is moved into place as a whole, after it has been flushed
/// once (syncFolder), so an export of 10^4 datasets does not wait for 10^4 flushes, and a
/// cancelled one removes files that never reached the disk. Throws WriteError.
void writeStagedText(const std::string& path, std::string_view text);

/// Receives the pieces of a text being written, in order.
using TextSink = std::function<void(std::string_view)>;
/// Makes a text by handing it to the sink piece by piece.
using TextProducer = std::function<void(const TextSink&)>;

/// writeTextAtomic and writeStagedText for a text made piece by piece as it is written, so that
/// a large output (a synthetic dataset of 10^6 records) is never whole in memory. Whatever
/// `produce` throws (exec::Cancelled) leaves no file behind, as a failed write does.
void writeTextAtomicInPieces(const std::string& path, const TextProducer& produce);
void writeStagedTextInPieces(const std::string& path, const TextProducer& produce);

/// Flushes everything written to the file system holding `folder` (syncfs(2)): the one flush
/// of a staging folder before its files are moved into place. Throws WriteError.
void syncFolder(const std::string& folder);

}  // namespace dpsynth::core::data
