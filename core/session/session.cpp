#include "core/session/session.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/data/csv_writer.h"
#include "core/data/sha256.h"
#include "core/io/json_reader.h"
#include "core/session/results_json.h"

namespace dpsynth::core::session {
namespace {

using nlohmann::json;

constexpr const char* kAuto = "auto";

json optionalNumber(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}
/// k and downscale: nullopt means "search/choose automatically", written as "auto".
json numberOrAuto(const std::optional<double>& value) { return value ? json(*value) : json(kAuto); }

json mechanismToJson(const pipeline::MechanismConfig& config) {
  return json{{"mechanism", pipeline::mechanismName(config.mechanism)},
              {"c", config.c},
              {"g", config.g},
              {"radius", config.radius},
              {"radius_relative", config.radiusRelative},
              {"k", numberOrAuto(config.k)},
              {"epsilon", optionalNumber(config.epsilon)},
              {"downscale", numberOrAuto(config.downscale)},
              {"lower", optionalNumber(config.lower)},
              {"upper", optionalNumber(config.upper)},
              {"bins", config.bins},
              {"reproducible_noise", config.reproducibleNoise}};
}

[[noreturn]] void raiseSessionError(const std::string& message) { throw SessionError(message); }

/// Reads keys of one JSON object of a session file, failing with a SessionError.
io::JsonReader sessionReader(const json& object, const std::string& file, std::string where) {
  return io::JsonReader(object, "session file '" + file + "'", std::move(where), raiseSessionError);
}

pipeline::MechanismConfig mechanismFromJson(const json& value, const std::string& file,
                                            std::size_t index) {
  const io::JsonReader r = sessionReader(value, file, "mechanisms[" + std::to_string(index) + "]");
  pipeline::MechanismConfig config;
  try {
    config.mechanism = pipeline::parseMechanism(r.string("mechanism"));
  } catch (const std::invalid_argument& e) {
    r.fail("mechanism", e.what());
  }
  config.c = r.number("c");
  config.g = r.number("g");
  config.radius = r.number("radius");
  config.radiusRelative = r.boolean("radius_relative");
  config.k = r.numberOrAuto("k");
  config.epsilon = r.optionalNumber("epsilon");
  config.downscale = r.numberOrAuto("downscale");
  config.lower = r.optionalNumber("lower");
  config.upper = r.optionalNumber("upper");
  config.bins = r.integer<int>("bins", 0, 1'000'000);
  config.reproducibleNoise = r.boolean("reproducible_noise");
  return config;
}

}  // namespace

std::string toJson(const Session& session) {
  json mechanisms = json::array();
  for (const auto& config : session.mechanisms) mechanisms.push_back(mechanismToJson(config));
  const auto& nuts = session.run.nuts;
  json doc{{"version", session.version},
           {"data",
            {{"file", session.dataFile},
             {"sample", session.sample},
             {"sha256", session.dataSha256},
             {"outcome", session.dataset.outcome},
             {"covariates", session.dataset.covariates},
             {"family", models::familyName(session.dataset.family)},
             {"family_declared", session.familyDeclared},
             {"drop_missing", session.dataset.dropMissing},
             {"weights_from", session.weightsFrom},
             {"reference_levels", session.dataset.referenceLevels}}},
           {"mechanisms", mechanisms},
           {"run",
            {{"seed", session.reproducible ? json(nuts.seed.lo) : json(nullptr)},
             {"neighbours", privacy::neighboursName(session.run.neighbours)},
             {"chains", nuts.chains},
             {"warmup", nuts.warmup},
             {"draws", nuts.draws},
             {"threads", nuts.threads},
             {"metric", mcmc::metricChoiceName(nuts.metric)},
             {"sd_scale", session.run.model.sdScale},
             {"rows",
              session.run.size.declaredRows ? json(*session.run.size.declaredRows) : json(nullptr)},
             {"size_epsilon", session.run.size.epsilon},
             {"tuned_on_confidential", session.run.tunedOnConfidential}}},
           {"synthetic_datasets", session.syntheticDatasets}};
  if (session.results) doc["results"] = detail::resultsToJson(*session.results);
  return doc.dump(2) + "\n";
}

Session fromJson(const std::string& text, const std::string& file) {
  const json doc = io::parseJson(text, "session file '" + file + "'", raiseSessionError);
  const io::JsonReader top = sessionReader(doc, file, "");
  const int version = top.integer<int>("version");
  if (version != kSessionVersion) {
    throw SessionError("session file '" + file + "' has version " + std::to_string(version) +
                       "; this dpsynth reads version " + std::to_string(kSessionVersion) +
                       (version > kSessionVersion ? " (it was written by a newer dpsynth)" : ""));
  }
  Session session;
  session.version = version;

  const io::JsonReader data = top.object("data");
  session.dataFile = data.string("file");
  session.sample = data.string("sample");
  session.dataSha256 = data.string("sha256");
  session.dataset.outcome = data.string("outcome");
  session.dataset.covariates = data.strings("covariates");
  try {
    session.dataset.family = models::parseFamily(data.string("family"));
  } catch (const std::invalid_argument& e) {
    data.fail("family", e.what());
  }
  // Added after version 1 was fixed: older files' family counts as declared.
  session.familyDeclared = data.boolean("family_declared", true);
  session.dataset.dropMissing = data.boolean("drop_missing");
  if (data.has("weights_from")) session.weightsFrom = data.string("weights_from");
  // Added after version 1 was fixed: older files name no reference level (the default rule).
  if (data.has("reference_levels")) {
    const io::JsonReader levels = data.object("reference_levels");
    for (const auto& [column, level] : data.require("reference_levels").items())
      session.dataset.referenceLevels[column] = levels.string(column);
  }

  const json& mechanisms = top.require("mechanisms");
  if (!mechanisms.is_array()) top.fail("mechanisms", "must be a list");
  for (std::size_t i = 0; i < mechanisms.size(); ++i) {
    session.mechanisms.push_back(mechanismFromJson(mechanisms[i], file, i));
  }

  const io::JsonReader run = top.object("run");
  // Sessions saved before releases existed always hold a seed: they replay reproducibly, as
  // not for release. A null or missing seed replays as a release.
  auto& nuts = session.run.nuts;
  const std::optional<std::uint64_t> seed = run.optionalInteger<std::uint64_t>("seed");
  session.reproducible = seed.has_value();
  if (seed) nuts.seed = *seed;
  if (run.has("neighbours")) {
    try {
      session.run.neighbours = privacy::parseNeighbours(run.string("neighbours"));
    } catch (const std::invalid_argument& e) {
      run.fail("neighbours", e.what());
    }
  }
  nuts.chains = run.integer<int>("chains", 1, 1024);
  nuts.warmup = run.integer<int>("warmup", 0, 100'000'000);
  nuts.draws = run.integer<int>("draws", 1, 100'000'000);
  nuts.threads = run.integer<int>("threads", 0, 4096);
  // Each bound alone holds; their product must too (1024 chains × 10^8 draws does not fit).
  for (const std::string& problem : nuts.validate()) run.fail("", problem);
  // Sessions saved before the metric setting existed sample with the automatic choice.
  if (run.has("metric")) {
    try {
      nuts.metric = mcmc::parseMetricChoice(run.string("metric"));
    } catch (const std::invalid_argument& e) {
      run.fail("metric", e.what());
    }
  }
  session.run.model.sdScale = run.number("sd_scale");
  if (!(session.run.model.sdScale > 0)) run.fail("sd_scale", "must be positive");
  // Added after version 1 was fixed (SPEC §0 "The size of the data"): a size declared public,
  // and ε_n of the noisy size; older files have neither (no declared size, the default ε_n).
  if (run.has("rows") && !run.require("rows").is_null()) {
    const long long rows = run.integer("rows");
    if (rows < 1 || rows > static_cast<long long>(privacy::kMaxDeclaredRows))
      run.fail("rows",
               "must be null or between 1 and " + std::to_string(privacy::kMaxDeclaredRows));
    session.run.size.declaredRows = static_cast<std::size_t>(rows);
  }
  if (run.has("size_epsilon")) {
    session.run.size.epsilon = run.number("size_epsilon");
    if (!(session.run.size.epsilon >= 1e-6 && session.run.size.epsilon <= 1e6))
      run.fail("size_epsilon", "must be a number from 1e-6 to 1e6");
  }
  session.run.model.family = session.dataset.family;
  // Added after version 1 was fixed: older sessions were not tuned on the confidential data.
  session.run.tunedOnConfidential = run.boolean("tuned_on_confidential", false);

  session.syntheticDatasets = top.integer<int>("synthetic_datasets", 1, 100'000);
  // Added after version 1 was fixed: files without it (or with null) have no stored results.
  if (top.has("results") && !top.require("results").is_null()) {
    session.results = detail::resultsFromJson(top.require("results"), file);
  }
  return session;
}

void saveSession(const std::string& path, const Session& session) {
  data::writeTextAtomic(path, toJson(session));
}

Session loadSession(const std::string& path) {
  // Never block on a FIFO or read a device forever: a session is a small regular file.
  constexpr std::uintmax_t kMaxBytes = 16u << 20;
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw SessionError("cannot open session file '" + path + "': it does not exist");
  if (!std::filesystem::is_regular_file(status))
    throw SessionError("session file '" + path +
                       "' is not a regular file (a folder, pipe or device); give a .dpsynth file");
  if (std::filesystem::file_size(path, ec) > kMaxBytes)
    throw SessionError("session file '" + path +
                       "' is larger than 16 MiB; a session is a few "
                       "kilobytes: is this the right file?");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SessionError("cannot open session file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw SessionError("error while reading session file '" + path + "'");
  Session session = fromJson(text.str(), path);
  for (std::string* file : {&session.dataFile, &session.weightsFrom}) {
    if (file->empty()) continue;
    std::filesystem::path data(*file);
    if (data.is_relative())
      *file = (std::filesystem::absolute(path).parent_path() / data).lexically_normal().string();
  }
  return session;
}

DataFileCheck checkDataFile(const Session& session) {
  DataFileCheck check;
  std::error_code ec;
  if (session.dataFile.empty() || !std::filesystem::is_regular_file(session.dataFile, ec)) {
    check.status = DataFileStatus::missing;
    check.message = "The data file '" + session.dataFile + "' of this session was not found.";
    return check;
  }
  try {
    return compareDataDigest(session, data::sha256File(session.dataFile));
  } catch (const std::runtime_error& e) {
    check.status = DataFileStatus::missing;
    check.message = e.what();
    return check;
  }
}

DataFileCheck compareDataDigest(const Session& session, const std::string& actualSha256) {
  DataFileCheck check;
  check.actualSha256 = actualSha256;
  if (session.dataSha256.empty()) {
    check.status = DataFileStatus::unverified;
    check.message = "The session stores no checksum for '" + session.dataFile +
                    "', so it cannot tell whether the data changed.";
  } else if (check.actualSha256 == session.dataSha256) {
    check.status = DataFileStatus::unchanged;
    check.message = "The data file is the one the session was saved with.";
  } else {
    check.status = DataFileStatus::changed;
    check.message = "The data file '" + session.dataFile +
                    "' has changed since the session was saved (SHA-256 " +
                    check.actualSha256.substr(0, 12) + "… instead of " +
                    session.dataSha256.substr(0, 12) +
                    "…): results will differ from the saved analysis.";
  }
  return check;
}

}  // namespace dpsynth::core::session
