#include "core/study/study_config.h"

#include <cmath>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/data/csv_writer.h"
#include "core/data/regular_file.h"
#include "core/data/sha256.h"
#include "core/mcmc/nuts_config.h"
#include "core/study/config_reader.h"

namespace dpsynth::core::study {
namespace {

using nlohmann::json;

struct GeneratorShape {
  Generator::Kind kind;
  const char* name;
  std::size_t arity;
};
constexpr GeneratorShape kShapes[] = {{Generator::Kind::beta, "beta", 2},
                                      {Generator::Kind::poisson, "poisson", 1},
                                      {Generator::Kind::negbin, "negbin", 2},
                                      {Generator::Kind::nbmix, "nbmix", 5},
                                      {Generator::Kind::normal, "normal", 2}};

const GeneratorShape& shapeOf(Generator::Kind kind) {
  for (const auto& s : kShapes)
    if (s.kind == kind) return s;
  throw std::logic_error("unknown generator kind");
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

/// Reads keys of one JSON object; messages are "study config 'F': key problem".

StudySource sourceFromJson(const json& value, const std::string& file) {
  const ConfigReader r(value, file, "source");
  r.onlyKeys({"generator", "n", "bootstrap", "outcome", "covariates", "family", "reference"});
  StudySource source;
  const bool hasGenerator = r.find("generator") != nullptr;
  const bool hasBootstrap = r.find("bootstrap") != nullptr;
  if (hasGenerator == hasBootstrap)
    r.fail("", "must name exactly one of \"generator\" and \"bootstrap\"");
  if (hasGenerator) {
    try {
      source.generator = Generator::parse(r.string("generator"));
    } catch (const std::invalid_argument& e) {
      r.fail("generator", e.what());
    }
    for (const char* key : {"outcome", "covariates", "family", "reference"})
      if (r.find(key)) r.fail(key, "belongs to a bootstrap source, not a generator");
    source.n = static_cast<std::size_t>(r.integer("n", 2, 100'000'000));
  } else {
    Bootstrap b;
    b.file = r.string("bootstrap");
    b.outcome = r.string("outcome");
    if (r.find("covariates")) b.covariates = r.strings("covariates");
    if (r.find("reference")) {
      const io::JsonReader levels = r.object("reference");
      for (const auto& [column, level] : r.require("reference").items())
        b.referenceLevels[column] = levels.string(column);
    }
    try {
      b.family = models::parseFamily(r.string("family"));
    } catch (const std::invalid_argument& e) {
      r.fail("family", e.what());
    }
    if (r.find("n")) source.n = static_cast<std::size_t>(r.integer("n", 2, 100'000'000));
    source.bootstrap = std::move(b);
  }
  return source;
}

json optionalNumber(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

Generator Generator::parse(const std::string& text) {
  const std::string t = trim(text);
  const auto open = t.find('(');
  if (open == std::string::npos || t.back() != ')')
    throw std::invalid_argument("'" + text + "' is not of the form name(p1,p2,...)");
  const std::string name = trim(t.substr(0, open));
  const GeneratorShape* shape = nullptr;
  for (const auto& s : kShapes)
    if (name == s.name) shape = &s;
  if (!shape)
    throw std::invalid_argument("unknown generator '" + name +
                                "' (known: beta(a,b), poisson(mu), negbin(mu,phi), "
                                "nbmix(w,mu1,phi1,mu2,phi2), normal(mu,sigma))");
  Generator g;
  g.kind = shape->kind;
  std::stringstream args(t.substr(open + 1, t.size() - open - 2));
  std::string item;
  while (std::getline(args, item, ',')) {
    const std::string v = trim(item);
    std::size_t used = 0;
    double x = 0;
    try {
      x = std::stod(v, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (v.empty() || used != v.size() || !std::isfinite(x))
      throw std::invalid_argument("'" + v + "' in '" + text + "' is not a number");
    g.parameters.push_back(x);
  }
  if (g.parameters.size() != shape->arity)
    throw std::invalid_argument(std::string(shape->name) + " takes " +
                                std::to_string(shape->arity) + " parameters, '" + text + "' has " +
                                std::to_string(g.parameters.size()));
  const auto& p = g.parameters;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const bool isWeight = g.kind == Kind::nbmix && i == 0;
    if (g.kind == Kind::normal && i == 0) continue;  // a mean: any finite number
    if (isWeight ? !(p[i] >= 0 && p[i] <= 1) : !(p[i] > 0))
      throw std::invalid_argument(
          "in '" + text + "' parameter " + std::to_string(i + 1) +
          (isWeight ? " (the weight) must be in [0, 1]" : " must be positive"));
  }
  return g;
}

std::string Generator::spelling() const {
  std::string out = std::string(shapeOf(kind).name) + "(";
  for (std::size_t i = 0; i < parameters.size(); ++i)
    out += (i ? "," : "") + data::formatNumber(parameters[i]);
  return out + ")";
}

models::Family Generator::family() const {
  switch (kind) {
    case Kind::beta:
      return models::Family::beta;
    case Kind::poisson:
      return models::Family::poisson;
    case Kind::negbin:
    case Kind::nbmix:
      return models::Family::negbin;
    case Kind::normal:
      return models::Family::normal;
  }
  return models::Family::negbin;
}

models::Family StudyConfig::family() const {
  if (source.generator) return source.generator->family();
  return source.bootstrap ? source.bootstrap->family : models::Family::normal;
}

std::vector<std::string> StudyConfig::validate() const {
  std::vector<std::string> problems;
  if (version != 1) problems.push_back("version: must be 1");
  if (source.generator.has_value() == source.bootstrap.has_value())
    problems.push_back("source: must name exactly one of generator and bootstrap");
  if (source.generator && source.n < 2) problems.push_back("source.n: must be at least 2");
  if (mechanisms.empty()) problems.push_back("mechanisms: must name at least one mechanism");
  for (std::size_t i = 0; i < mechanisms.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (mechanisms[i] == mechanisms[j])
        problems.push_back("mechanisms: '" + pipeline::mechanismName(mechanisms[i]) +
                           "' is listed twice");
  bool needsEpsilon = false;
  for (auto m : mechanisms) needsEpsilon = needsEpsilon || pipeline::requiresEpsilon(m);
  if (needsEpsilon && epsilon.empty())
    problems.push_back("epsilon: must list at least one value (a mechanism needs ε)");
  for (double e : epsilon)
    if (!(e > 0) || !std::isfinite(e)) problems.push_back("epsilon: every value must be > 0");
  for (double c : tuning.c)
    if (!(c >= 0) || !std::isfinite(c)) problems.push_back("tuning.c: every value must be >= 0");
  for (double g : tuning.g)
    if (!std::isfinite(g)) problems.push_back("tuning.g: every value must be finite");
  for (const auto& d : tuning.downscale)
    if (d && !(*d > 0 && *d <= 1))
      problems.push_back("tuning.downscale: every value must be in (0, 1] or \"auto\"");
  if (tuning.c.empty() || tuning.g.empty() || tuning.downscale.empty())
    problems.push_back("tuning: c, g and downscale must each hold at least one value");
  if (replicates < 1 || replicates > 1'000'000)
    problems.push_back("replicates: must be between 1 and 1000000");
  if (sampler.chains < 1 || sampler.chains > 64)
    problems.push_back("sampler.chains: must be between 1 and 64");
  if (sampler.warmup < 0) problems.push_back("sampler.warmup: must be >= 0");
  if (sampler.draws < 1) problems.push_back("sampler.draws: must be >= 1");
  if (static_cast<long long>(sampler.chains) * sampler.draws > mcmc::NutsConfig::kMaxStoredDraws)
    problems.push_back("sampler: chains × draws must be at most " +
                       std::to_string(mcmc::NutsConfig::kMaxStoredDraws) +
                       " (every draw of a replicate is kept in memory)");
  bool hasPh = false;
  for (auto m : mechanisms) hasPh = hasPh || m == pipeline::Mechanism::ph;
  if (hasPh && !pipeline::naturalBounds(family()) && !(histogram.lower && histogram.upper))
    problems.push_back(
        "ph.lower, ph.upper: the perturbed histogram needs public bounds (never from the data)");
  if (histogram.lower && histogram.upper && !(*histogram.lower < *histogram.upper))
    problems.push_back("ph.lower: must be below ph.upper");
  if (histogram.bins < 0) problems.push_back("ph.bins: must be >= 0");
  return problems;
}

StudyConfig studyConfigFromJson(const std::string& text, const std::string& file) {
  const json top = parseConfigJson(text, file);
  const ConfigReader r(top, file, "");
  r.onlyKeys({"version", "source", "mechanisms", "epsilon", "tuning", "neighbours", "replicates",
              "sampler", "ph", "seed", "note"});
  StudyConfig config;
  config.version = static_cast<int>(r.integer("version", 1, 1));
  config.source = sourceFromJson(r.require("source"), file);
  for (const std::string& name : r.strings("mechanisms")) {
    try {
      config.mechanisms.push_back(pipeline::parseMechanism(name));
    } catch (const std::invalid_argument& e) {
      r.fail("mechanisms", e.what());
    }
  }
  if (r.find("epsilon")) config.epsilon = r.numbers("epsilon");
  if (const json* t = r.find("tuning")) {
    const ConfigReader tr(*t, file, "tuning");
    tr.onlyKeys({"c", "g", "downscale"});
    if (tr.find("c")) config.tuning.c = tr.numbers("c");
    if (tr.find("g")) config.tuning.g = tr.numbers("g");
    if (tr.find("downscale")) config.tuning.downscale = tr.numbersOrAuto("downscale");
  }
  if (r.find("neighbours")) {
    try {
      config.neighbours = privacy::parseNeighbours(r.string("neighbours"));
    } catch (const std::invalid_argument& e) {
      r.fail("neighbours", e.what());
    }
  }
  config.replicates = static_cast<int>(r.integer("replicates", 1, 1'000'000));
  if (const json* s = r.find("sampler")) {
    const ConfigReader sr(*s, file, "sampler");
    sr.onlyKeys({"chains", "warmup", "draws"});
    if (sr.find("chains")) config.sampler.chains = static_cast<int>(sr.integer("chains", 1, 64));
    if (sr.find("warmup"))
      config.sampler.warmup = static_cast<int>(sr.integer("warmup", 0, 10'000'000));
    if (sr.find("draws"))
      config.sampler.draws = static_cast<int>(sr.integer("draws", 1, 10'000'000));
  }
  if (const json* p = r.find("ph")) {
    const ConfigReader pr(*p, file, "ph");
    pr.onlyKeys({"lower", "upper", "bins"});
    const json* lower = pr.find("lower");
    if (lower && !lower->is_null()) config.histogram.lower = pr.number(*lower, "lower");
    const json* upper = pr.find("upper");
    if (upper && !upper->is_null()) config.histogram.upper = pr.number(*upper, "upper");
    if (pr.find("bins")) config.histogram.bins = static_cast<int>(pr.integer("bins", 0, 1'000'000));
  }
  config.seed = r.integer<std::uint64_t>("seed");
  if (r.find("note")) config.note = r.string("note");
  const auto problems = config.validate();
  if (!problems.empty()) {
    std::string all;
    for (const auto& p : problems) all += (all.empty() ? "" : "; ") + p;
    throw ConfigError("study config '" + file + "': " + all);
  }
  return config;
}

std::string readStudyConfigText(const std::string& path) {
  // A config is small: 16 MiB is far beyond any grid; a FIFO or device is refused unread.
  try {
    return data::readRegularFile(path, std::uint64_t{16} << 20);
  } catch (const std::exception& e) {
    throw ConfigError("study config '" + path + "': " + e.what());
  }
}

StudyConfig loadStudyConfig(const std::string& path) {
  const std::string text = readStudyConfigText(path);
  StudyConfig config = studyConfigFromJson(text, path);
  if (config.source.bootstrap) {
    const std::filesystem::path file(config.source.bootstrap->file);
    if (file.is_relative()) {
      config.source.bootstrap->file =
          (std::filesystem::path(path).parent_path() / file).lexically_normal().string();
    }
  }
  return config;
}

std::string studyConfigToJson(const StudyConfig& config) {
  json source;
  if (config.source.generator) {
    source = json{{"generator", config.source.generator->spelling()}, {"n", config.source.n}};
  } else {
    const Bootstrap& b = *config.source.bootstrap;
    source = json{{"bootstrap", b.file},
                  {"outcome", b.outcome},
                  {"covariates", b.covariates},
                  {"family", models::familyName(b.family)}};
    if (config.source.n > 0) source["n"] = config.source.n;
    // Written only when set: the canonical text (and hash) of older studies stays the same.
    if (!b.referenceLevels.empty()) source["reference"] = b.referenceLevels;
  }
  json mechanisms = json::array();
  for (auto m : config.mechanisms) mechanisms.push_back(pipeline::mechanismName(m));
  json downscale = json::array();
  for (const auto& d : config.tuning.downscale) downscale.push_back(d ? json(*d) : json("auto"));
  json out{{"version", config.version},
           {"source", source},
           {"mechanisms", mechanisms},
           {"epsilon", config.epsilon},
           {"tuning", {{"c", config.tuning.c}, {"g", config.tuning.g}, {"downscale", downscale}}},
           {"neighbours", privacy::neighboursName(config.neighbours)},
           {"replicates", config.replicates},
           {"sampler",
            {{"chains", config.sampler.chains},
             {"warmup", config.sampler.warmup},
             {"draws", config.sampler.draws}}},
           {"ph",
            {{"lower", optionalNumber(config.histogram.lower)},
             {"upper", optionalNumber(config.histogram.upper)},
             {"bins", config.histogram.bins}}},
           {"seed", config.seed},
           {"note", config.note}};
  // No grid is written as no key: the reader refuses an empty list (a config that names ε
  // must name a value), and what this writes must read back (fuzz/study_config_fuzzer).
  if (config.epsilon.empty()) out.erase("epsilon");
  return out.dump(2) + "\n";
}

std::string studyConfigHash(const StudyConfig& config) {
  return data::sha256Hex(studyConfigToJson(config));
}

}  // namespace dpsynth::core::study
