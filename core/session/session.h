#pragma once
/// Studio session files (`.dpsynth`): everything needed to repeat an analysis (where the data
/// is, which columns and family, every mechanism's tuning, the sampler settings) and, optionally,
/// the last run's results (SessionResults: rows and reductions, never the data, one value per
/// record or draws). JSON with a "version"; keys are only ever added, so older files load.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/error.h"
#include "core/pipeline/mechanism.h"
#include "core/pipeline/pipeline.h"
#include "core/session/session_results.h"

namespace dpsynth::core::session {

/// The format version this build writes; load() refuses any other.
inline constexpr int kSessionVersion = 1;

/// A session file that cannot be used: unreadable, not JSON, wrong version, a missing or
/// mistyped key. what() names the file and the key.
class SessionError : public core::Error {
 public:
  explicit SessionError(const std::string& message) : Error(Kind::badInput, message) {}
};

struct Session {
  int version = kSessionVersion;
  /// The CSV the session analyses. Relative paths are resolved against the session file's
  /// folder by loadSession(); saveSession() writes the path as given.
  std::string dataFile;
  /// Name of a bundled sample (sampleKinds()) when the data came from one; dataFile then holds
  /// the sample's path if it has one.
  std::string sample;
  /// SHA-256 of the data file's bytes when the session was saved (lower-case hex); empty when
  /// unknown (the data check then reports "unverified").
  std::string dataSha256;
  data::DatasetSpec dataset;  ///< outcome, covariates, family, dropMissing, referenceLevels
  /// The family was picked by the analyst ("family_declared"), not suggested from the
  /// confidential values: a release needs it declared (SPEC §0, choices made on the data).
  /// Files written before the key existed count as declared, as they were read then.
  bool familyDeclared = true;
  std::vector<pipeline::MechanismConfig> mechanisms;
  /// model.sdScale, neighbours, size ("rows", "size_epsilon"), tunedOnConfidential and
  /// nuts.{seed, chains, warmup, draws, threads, metric} are stored;
  /// model.family always equals dataset.family. run.release and run.weightReference are never
  /// stored: see reproducible and weightsFrom.
  pipeline::RunSettings run;
  /// true: run.nuts.seed is a user seed and the session replays bit for bit, labelled
  /// not_for_release. false ("seed": null in the file): the session replays as a release with a
  /// fresh seed from the OS (SPEC §0).
  bool reproducible = false;
  /// Public reference CSV for censor-w / weighted-e weight functions (SPEC §0); empty = weights
  /// from the data. Relative paths are resolved like dataFile.
  std::string weightsFrom;
  int syntheticDatasets = 1;  ///< m synthetic datasets to release (spends m·ε)
  /// The last run's results ("results" key; absent in files written before it existed).
  std::optional<SessionResults> results;
};

/// Pretty-printed JSON text of a session.
std::string toJson(const Session& session);
/// Parses JSON text; `file` is used in messages only. Throws SessionError.
Session fromJson(const std::string& text, const std::string& file);

/// Writes the session atomically (temporary file + rename). Throws std::runtime_error.
void saveSession(const std::string& path, const Session& session);
/// Reads and validates a session file; a relative dataFile is made absolute against the session
/// file's folder. Throws SessionError. Does not touch the data file: see checkDataFile().
Session loadSession(const std::string& path);

enum class DataFileStatus { unchanged, changed, missing, unverified };

struct DataFileCheck {
  DataFileStatus status = DataFileStatus::unverified;
  std::string actualSha256;  ///< digest of the file now (empty if missing)
  std::string message;       ///< one plain-language sentence for the user
};

/// Compares the data file's current SHA-256 with the one stored in the session.
DataFileCheck checkDataFile(const Session& session);
/// The same for a digest of the file's bytes computed by whoever read them (the studio hashes
/// the bytes it parses on its loader thread, instead of reading the file twice).
DataFileCheck compareDataDigest(const Session& session, const std::string& actualSha256);

}  // namespace dpsynth::core::session
