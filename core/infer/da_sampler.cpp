#include "core/infer/da_sampler.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>

#include "core/exec/parallel_for.h"
#include "core/mcmc/diagnostics.h"

namespace dpsynth::core::infer {

std::vector<std::string> DaConfig::validate() const {
  std::vector<std::string> problems;
  if (iterations < 1) problems.push_back("iterations must be at least 1");
  if (warmup < 0) problems.push_back("warmup must not be negative");
  if (warmup >= iterations) problems.push_back("warmup must be below iterations");
  if (chains < 1) problems.push_back("chains must be at least 1");
  if (threads < 0) problems.push_back("threads must not be negative");
  if (progressEvery < 1) problems.push_back("progressEvery must be at least 1");
  return problems;
}

long long daValues(const RecordAdditiveModel& model, const DaConfig& config) {
  // Each term is below 2^62 for the bounds the readers and flags allow (n ≤ 10^8, width ≤ 10^4,
  // iterations ≤ 10^8, chains ≤ 256, parameters ≤ 10^7); saturate rather than trust that.
  const auto mul = [](long long a, long long b) {
    if (a == 0 || b == 0) return 0LL;
    return a > (1LL << 62) / b ? (1LL << 62) : a * b;
  };
  const long long perChain =
      mul(model.recordCount(), model.recordWidth() + 1LL) + 2LL * config.iterations +
      mul(std::max(0, config.iterations - config.warmup), model.parameterDim());
  return mul(perChain, std::max(1, config.chains));
}

std::string daMemoryProblem(const RecordAdditiveModel& model, const DaConfig& config) {
  const long long values = daValues(model, config);
  if (values <= kMaxDaValues) return {};
  const auto gib = [](long long v) {
    return std::to_string(static_cast<long long>(
        std::ceil(static_cast<double>(v) * 8.0 / static_cast<double>(1LL << 30))));
  };
  const std::string head = "the sampler would keep " + std::to_string(values) + " values (about " +
                           gib(values) + " GiB) in memory; the most is " +
                           std::to_string(kMaxDaValues) + " (2 GiB): ";
  DaConfig one = config;
  one.chains = 1;
  const long long perChain = daValues(model, one);
  const long long width = model.recordWidth() + 1LL;
  if (static_cast<long long>(model.recordCount()) * width > kMaxDaValues)
    return head + "the release's " + std::to_string(model.recordCount()) +
           " latent records alone need that much (at most " + std::to_string(kMaxDaValues / width) +
           " records of this kind fit)";
  if (perChain <= kMaxDaValues)
    return head + "use --chains " + std::to_string(kMaxDaValues / perChain) +
           (kMaxDaValues / perChain > 1 ? " or fewer" : "");
  return head + "keep fewer draws (--iterations minus --warmup) or use fewer chains";
}

double DaResult::meanAcceptance() const {
  double sum = 0.0;
  long long count = 0;
  for (const auto& c : chains) {
    sum += c.meanAcceptance * static_cast<double>(c.proposals);
    count += c.proposals;
  }
  return count > 0 ? sum / static_cast<double>(count) : 0.0;
}

double DaResult::minAcceptance() const {
  double m = 1.0;
  for (const auto& c : chains) m = std::min(m, c.minAcceptance);
  return m;
}

long long DaResult::proposals() const {
  long long n = 0;
  for (const auto& c : chains) n += c.proposals;
  return n;
}

long long DaResult::gradientEvaluations() const {
  long long n = 0;
  for (const auto& c : chains) n += c.gradientEvaluations;
  return n;
}

namespace {

/// Hands the observer the sweeps [from, to) of a chain and the kept draws among them.
void reportBatch(const DaObserver& observer, const DaChainResult& result,
                 const Eigen::VectorXd& probability, int chain, int warmup, int from, int to) {
  DaBatch batch;
  batch.chain = chain;
  batch.firstSweep = from;
  batch.sweepAcceptance = result.sweepAcceptance.segment(from, to - from);
  batch.sweepProbability = probability.segment(from, to - from);
  const int firstKept = std::max(from, warmup);
  batch.firstDraw = firstKept - warmup;
  if (to > firstKept) batch.draws = result.draws.middleRows(batch.firstDraw, to - firstKept);
  observer.onBatch(batch);
}

/// Every kJointEvery-th sweep ends with one joint prior-predictive step.
constexpr int kJointEvery = 4;
/// Records × width above which the step is skipped (its backup copy would be too large).
constexpr long long kMaxJointValues = 10'000'000;

/// One Metropolis–Hastings step on (θ, x) jointly with the prior predictive as an independence
/// proposal: θ′ from the prior, every record from f(· | θ′), accepted with η(s | T′)/η(s | T)
/// (the prior and the records' density cancel). The Gibbs sweeps alone random-walk: when the
/// release says little (small ε) x pins θ down and θ pins x, so θ moves by about its
/// posterior-given-x sd per sweep and 100 records at ε = 10^-5 took thousands of sweeps per
/// effective draw; there this step is accepted almost always and gives independent draws. At
/// large ε it is almost never accepted and costs one sweep in kJointEvery. Returns false when
/// stopped (the records are then restored).
bool jointStep(const RecordAdditiveModel& model, random::Rng& rng, const std::stop_token& stop,
               double* records, int n, int width, Eigen::VectorXd& T, Eigen::VectorXd& theta,
               std::vector<double>& backup, DaChainResult& result) {
  const std::optional<Eigen::VectorXd> proposed = model.drawPriorTheta(rng);
  if (!proposed) return true;
  const std::size_t values = static_cast<std::size_t>(n) * static_cast<std::size_t>(width);
  backup.assign(records, records + values);
  const Eigen::VectorXd savedT = T;
  std::vector<double> fresh(static_cast<std::size_t>(width));
  double logRatio = 0.0;
  bool stopped = false;
  for (int i = 0; i < n; ++i) {
    if ((i & 4095) == 0 && stop.stop_requested()) {
      stopped = true;
      break;
    }
    double* record = records + static_cast<std::size_t>(i) * width;
    model.drawRecord(*proposed, rng, fresh.data());
    logRatio += model.moveStatistic(T, record, fresh.data());
    std::copy(fresh.begin(), fresh.end(), record);
  }
  ++result.jointProposals;
  if (!stopped && (logRatio >= 0.0 || std::log(random::uniform01(rng)) < logRatio)) {
    theta = *proposed;
    ++result.jointAccepted;
    return true;
  }
  std::copy(backup.begin(), backup.end(), records);
  T = savedT;
  return !stopped;
}

std::optional<DaChainResult> runChain(const RecordAdditiveModel& model, const DaConfig& config,
                                      int chain, std::stop_token stop, const DaProgress& progress,
                                      const DaObserver& observer) {
  random::Rng rng = random::makeRng(config.seed, static_cast<std::uint64_t>(chain));
  const int n = model.recordCount();
  const int width = model.recordWidth();
  const int kept = config.iterations - config.warmup;

  Eigen::VectorXd theta = model.initialTheta(rng);
  // Non-conjugate models: θ | x by one adapted NUTS step per sweep (warm-up sweeps adapt).
  const std::unique_ptr<ThetaStep> thetaStep = model.makeThetaStep(config.warmup);
  // Records row after row in one buffer; proposal is a scratch record. Left uninitialised: the
  // first draw below writes every value, and zeroing 10^8 records first took a third of a
  // second that no stop request could interrupt.
  const std::unique_ptr<double[]> records(new double[static_cast<std::size_t>(n) * width]);
  std::vector<double> proposal(static_cast<std::size_t>(width));
  Eigen::VectorXd T = Eigen::VectorXd::Zero(model.statisticDim());
  for (int i = 0; i < n; ++i) {
    if ((i & 4095) == 0 && stop.stop_requested()) return std::nullopt;
    double* record = records.get() + static_cast<std::size_t>(i) * width;
    model.drawRecord(theta, rng, record);
    model.addStatistic(record, T);
    if (thetaStep) thetaStep->addRecord(record);
  }
  if (thetaStep) thetaStep->start(theta, rng, stop);

  DaChainResult result;
  result.draws.resize(kept, model.parameterDim());
  result.sweepAcceptance.resize(config.iterations);
  result.recordAcceptance.resize(n);
  for (int i = 0; i < n; i += 1 << 16) {
    if (stop.stop_requested()) return std::nullopt;
    result.recordAcceptance.segment(i, std::min(1 << 16, n - i)).setZero();
  }
  double sumAccept = 0.0;
  // The joint prior-predictive step needs a prior draw (conjugate models) and a copy of the
  // records to restore on rejection: bounded so that it never doubles a large run's memory.
  random::Rng probe = rng;  // asks whether the model has a prior draw, leaving rng as it is
  const bool joint = !thetaStep && static_cast<long long>(n) * width <= kMaxJointValues &&
                     model.drawPriorTheta(probe).has_value();
  std::vector<double> jointBackup;
  int reported = 0;  // sweeps already handed to the observer
  // Mean acceptance probability per sweep, kept for the observer only.
  Eigen::VectorXd sweepProbability =
      Eigen::VectorXd::Zero(observer.onBatch ? config.iterations : 0);
  for (int sweep = 0; sweep < config.iterations; ++sweep) {
    if (stop.stop_requested()) return std::nullopt;
    theta = thetaStep ? thetaStep->step(rng, stop) : model.drawTheta(T, rng);
    if (stop.stop_requested()) return std::nullopt;
    int accepted = 0;
    for (int i = 0; i < n; ++i) {
      // A sweep over 10^8 latent records takes seconds: checked every 4096 records.
      if ((i & 4095) == 0 && stop.stop_requested()) return std::nullopt;
      double* record = records.get() + static_cast<std::size_t>(i) * width;
      if (thetaStep) {
        thetaStep->drawRecord(rng, proposal.data());
      } else {
        model.drawRecord(theta, rng, proposal.data());
      }
      const double logRatio = model.moveStatistic(T, record, proposal.data());
      const double alpha = logRatio >= 0.0 ? 1.0 : std::exp(logRatio);
      result.minAcceptance = std::min(result.minAcceptance, alpha);
      result.recordAcceptance[i] += alpha;
      sumAccept += alpha;
      if (observer.onBatch) sweepProbability[sweep] += alpha;
      if (alpha >= 1.0 || random::uniform01(rng) < alpha) {
        if (thetaStep) thetaStep->moveRecord(record, proposal.data());
        std::copy(proposal.begin(), proposal.end(), record);
        ++accepted;
      } else {
        model.moveStatistic(T, proposal.data(), record);
      }
    }
    result.sweepAcceptance[sweep] = n > 0 ? static_cast<double>(accepted) / n : 1.0;
    if (joint && sweep % kJointEvery == kJointEvery - 1) {
      if (!jointStep(model, rng, stop, records.get(), n, width, T, theta, jointBackup, result))
        return std::nullopt;
    }
    if (sweep >= config.warmup) result.draws.row(sweep - config.warmup) = theta.transpose();
    const int done = sweep + 1;
    if (observer.onBatch && (done - reported >= observer.every || done == config.iterations)) {
      auto fresh = sweepProbability.segment(reported, done - reported);
      if (n > 0)
        fresh /= static_cast<double>(n);
      else
        fresh.setOnes();
      reportBatch(observer, result, sweepProbability, chain, config.warmup, reported, done);
      reported = done;
    }
    if (progress && (done % config.progressEvery == 0 || done == config.iterations)) {
      progress(chain, done, config.iterations);
    }
  }
  result.proposals = static_cast<long long>(n) * config.iterations;
  if (thetaStep) result.gradientEvaluations = thetaStep->gradientEvaluations();
  result.recordAcceptance /= static_cast<double>(config.iterations);
  result.meanAcceptance =
      result.proposals > 0 ? sumAccept / static_cast<double>(result.proposals) : 1.0;
  return result;
}

}  // namespace

DaResult runDataAugmentation(const RecordAdditiveModel& model, const DaConfig& config,
                             std::stop_token stop, const DaProgress& progress,
                             const DaObserver& observer) {
  const std::vector<std::string> problems = config.validate();
  if (!problems.empty()) {
    std::string message = "invalid data-augmentation configuration: ";
    for (std::size_t i = 0; i < problems.size(); ++i) message += (i > 0 ? "; " : "") + problems[i];
    throw std::invalid_argument(message);
  }
  if (observer.onBatch && observer.every < 1) {
    throw std::invalid_argument("invalid data-augmentation observer: every must be at least 1");
  }
  if (const std::string problem = daMemoryProblem(model, config); !problem.empty())
    throw std::invalid_argument(problem);
  const auto start = std::chrono::steady_clock::now();
  // Chains in parallel on one thread budget (core/exec): chain c draws only from its own
  // stream, so the result does not depend on the threads.
  std::vector<std::optional<DaChainResult>> results(static_cast<std::size_t>(config.chains));
  exec::parallelFor(
      results.size(), config.threads,
      [&](std::size_t chain, std::stop_token token) {
        results[chain] =
            runChain(model, config, static_cast<int>(chain), token, progress, observer);
        return results[chain].has_value();
      },
      {}, stop);
  DaResult result;
  if (std::all_of(results.begin(), results.end(), [](const auto& r) { return r.has_value(); })) {
    for (auto& r : results) result.chains.push_back(std::move(*r));
  } else {
    result.cancelled = true;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::vector<DaParameterSummary> summarize(const RecordAdditiveModel& model,
                                          const DaResult& result) {
  const std::vector<std::string> names = model.parameterNames();
  std::vector<DaParameterSummary> out;
  if (result.chains.empty()) return out;
  for (int p = 0; p < model.parameterDim(); ++p) {
    std::vector<Eigen::VectorXd> perChain;
    Eigen::Index total = 0;
    for (const auto& c : result.chains) {
      perChain.emplace_back(c.draws.col(p));
      total += c.draws.rows();
    }
    Eigen::VectorXd pooled(total);
    Eigen::Index at = 0;
    for (const auto& v : perChain) {
      pooled.segment(at, v.size()) = v;
      at += v.size();
    }
    DaParameterSummary s;
    s.name = names.at(static_cast<std::size_t>(p));
    s.mean = pooled.mean();
    s.sd =
        total > 1
            ? std::sqrt((pooled.array() - s.mean).square().sum() / static_cast<double>(total - 1))
            : 0.0;
    s.q05 = mcmc::quantile(pooled, 0.05);
    s.q50 = mcmc::quantile(pooled, 0.50);
    s.q95 = mcmc::quantile(pooled, 0.95);
    // The diagnostics need at least 4 draws per chain; NaN says "not diagnosed".
    const bool diagnosable = result.chains.front().draws.rows() >= 4;
    s.rhat = diagnosable ? mcmc::rankNormalizedSplitRhat(perChain) : std::nan("");
    s.ess = diagnosable ? mcmc::essBulk(perChain) : std::nan("");
    out.push_back(s);
  }
  return out;
}

}  // namespace dpsynth::core::infer
