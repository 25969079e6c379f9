#include <QtTest>
#include <cmath>
#include <deque>
#include <limits>
#include <vector>

#include "core/mcmc/diagonal_metric.h"
#include "core/mcmc/hamiltonian.h"
#include "core/mcmc/leapfrog.h"
#include "core/mcmc/nuts_transition.h"
#include "core/random/rng.h"
#include "support/gaussian_models.h"

using dpsynth::core::mcmc::DiagonalMetric;
using dpsynth::core::mcmc::Hamiltonian;
using dpsynth::core::mcmc::leapfrog;
using dpsynth::core::mcmc::NutsTransition;
using dpsynth::core::mcmc::PhasePoint;
using dpsynth::core::mcmc::TransitionStats;
namespace rnd = dpsynth::core::random;
namespace test = dpsynth::test;

namespace {

/// A second, deliberately naive implementation of the same transition: every new subtree is a
/// flat list of states in build order, and each termination check sums momenta over an index
/// range of that list (or of the whole time-ordered trajectory) instead of carrying boundary
/// momenta through a recursion. It consumes random numbers in the same order as Stan's
/// recursion (momentum; per doubling a direction, one uniform per merge in post-order, one for
/// the top-level merge unless the new subtree outweighs the old trajectory).
class ReferenceNuts {
 public:
  ReferenceNuts(Hamiltonian& h, int maxDepth) : h_(h), maxDepth_(maxDepth) {}

  TransitionStats transition(PhasePoint& z0, double eps, rnd::Rng& rng) {
    TransitionStats stats;
    h_.sampleMomentum(z0, rng);
    h0_ = h_.energy(z0);
    sumMetro_ = 0.0;
    leapfrogs_ = 0;
    divergent_ = false;
    std::deque<PhasePoint> trajectory{z0};  // time order
    double logWeight = 0.0;
    PhasePoint chosen = z0;
    int depth = 0;
    while (depth < maxDepth_) {
      const bool forward = rnd::uniform01(rng) > 0.5;
      const PhasePoint& start = forward ? trajectory.back() : trajectory.front();
      std::vector<PhasePoint> built;
      PhasePoint proposal;
      double subtreeLogWeight = 0.0;
      if (!buildSubtree(start, forward ? eps : -eps, depth, rng, built, proposal,
                        subtreeLogWeight)) {
        break;
      }
      ++depth;
      if (subtreeLogWeight > logWeight) {
        chosen = proposal;
      } else if (rnd::uniform01(rng) < std::exp(subtreeLogWeight - logWeight)) {
        chosen = proposal;
      }
      logWeight = logSumExp(logWeight, subtreeLogWeight);

      std::vector<PhasePoint> older(trajectory.begin(), trajectory.end());
      std::vector<PhasePoint> newer(built.rbegin(), built.rend());  // time order if backward
      if (forward) {
        for (const PhasePoint& s : built) trajectory.push_back(s);
      } else {
        for (const PhasePoint& s : built) trajectory.push_front(s);
      }
      const std::vector<PhasePoint>& early = forward ? older : newer;
      const std::vector<PhasePoint>& late = forward ? built : older;
      const std::vector<PhasePoint> all(trajectory.begin(), trajectory.end());
      bool ok = uTurnFree(all, 0, all.size(), all.front(), all.back());
      ok = ok && uTurnFree(early, late.front(), early.front(), late.front());
      ok = ok && uTurnFree(late, early.back(), early.back(), late.back());
      if (!ok) break;
    }
    stats.treeDepth = depth;
    stats.leapfrogSteps = leapfrogs_;
    stats.divergent = divergent_;
    stats.acceptStat = sumMetro_ / leapfrogs_;
    z0 = chosen;
    return stats;
  }

 private:
  static double logSumExp(double a, double b) {
    const double m = std::max(a, b);
    return m + std::log(std::exp(a - m) + std::exp(b - m));
  }

  Eigen::VectorXd sharp(const PhasePoint& z) const { return h_.velocity(z); }

  /// No U-turn over states [a, b) of list, judged at the given end states.
  bool uTurnFree(const std::vector<PhasePoint>& list, std::size_t a, std::size_t b,
                 const PhasePoint& first, const PhasePoint& last) const {
    Eigen::VectorXd rho = Eigen::VectorXd::Zero(first.dim());
    for (std::size_t k = a; k < b; ++k) rho += list[k].p;
    return sharp(first).dot(rho) > 0 && sharp(last).dot(rho) > 0;
  }
  /// Same over all of list plus one extra state.
  bool uTurnFree(const std::vector<PhasePoint>& list, const PhasePoint& extra,
                 const PhasePoint& first, const PhasePoint& last) const {
    Eigen::VectorXd rho = extra.p;
    for (const PhasePoint& s : list) rho += s.p;
    return sharp(first).dot(rho) > 0 && sharp(last).dot(rho) > 0;
  }

  bool buildSubtree(const PhasePoint& start, double eps, int depth, rnd::Rng& rng,
                    std::vector<PhasePoint>& built, PhasePoint& proposal, double& logWeight) {
    const std::size_t leaves = std::size_t{1} << depth;
    PhasePoint z = start;
    // Per size-level stack of (proposal, log weight) of completed left siblings.
    std::vector<std::vector<std::pair<PhasePoint, double>>> pending(depth + 1);
    for (std::size_t i = 0; i < leaves; ++i) {
      leapfrog(h_, z, eps);
      ++leapfrogs_;
      const double h = h_.energy(z);
      if (h - h0_ > NutsTransition::kMaxEnergyError) divergent_ = true;
      sumMetro_ += h0_ - h > 0 ? 1.0 : std::exp(h0_ - h);
      built.push_back(z);
      if (divergent_) return false;
      // Walk up the nodes that this leaf completes, smallest first (post-order).
      PhasePoint nodeProposal = z;
      double nodeWeight = h0_ - h;
      for (int level = 0; level < depth; ++level) {
        const std::size_t size = std::size_t{2} << level;
        if ((i + 1) % size != 0) {
          pending[level].push_back({nodeProposal, nodeWeight});
          break;
        }
        auto [leftProposal, leftWeight] = pending[level].back();
        pending[level].pop_back();
        const double total = logSumExp(leftWeight, nodeWeight);
        PhasePoint merged = leftProposal;
        if (nodeWeight > total) {
          merged = nodeProposal;
        } else if (rnd::uniform01(rng) < std::exp(nodeWeight - total)) {
          merged = nodeProposal;
        }
        const std::size_t a = i + 1 - size, mid = a + size / 2, b = i + 1;
        bool ok = uTurnFree(built, a, b, built[a], built[b - 1]);
        std::vector<PhasePoint> left(built.begin() + a, built.begin() + mid);
        std::vector<PhasePoint> right(built.begin() + mid, built.begin() + b);
        ok = ok && uTurnFree(left, built[mid], built[a], built[mid]);
        ok = ok && uTurnFree(right, built[mid - 1], built[mid - 1], built[b - 1]);
        if (!ok) return false;
        nodeProposal = merged;
        nodeWeight = total;
        if (level == depth - 1) {
          proposal = nodeProposal;
          logWeight = nodeWeight;
        }
      }
      if (depth == 0) {
        proposal = nodeProposal;
        logWeight = nodeWeight;
      }
    }
    return true;
  }

  Hamiltonian& h_;
  int maxDepth_;
  double h0_ = 0.0, sumMetro_ = 0.0;
  int leapfrogs_ = 0;
  bool divergent_ = false;
};

}  // namespace

class NutsReferenceTest : public QObject {
  Q_OBJECT

 private slots:
  void matchesTheNaiveReference_data() {
    QTest::addColumn<double>("eps");
    QTest::addColumn<int>("model");
    QTest::newRow("correlated, eps 0.1") << 0.1 << 0;
    QTest::newRow("correlated, eps 0.4") << 0.4 << 0;
    QTest::newRow("banana, eps 0.25") << 0.25 << 1;
    QTest::newRow("half-space, eps 0.3") << 0.3 << 2;
  }

  void matchesTheNaiveReference() {
    QFETCH(double, eps);
    QFETCH(int, model);
    Eigen::Matrix3d cov;
    cov << 1.0, 0.8, 0.1, 0.8, 1.5, -0.4, 0.1, -0.4, 0.6;
    const test::CorrelatedGaussianModel gaussian(Eigen::Vector3d(0.5, -0.5, 1.0), cov);
    const test::BananaModel banana(0.6);
    const test::HalfSpaceGaussianModel halfSpace(2);
    const dpsynth::core::models::Model* models[] = {&gaussian, &banana, &halfSpace};
    const auto& m = *models[model];
    DiagonalMetric metric(Eigen::VectorXd::LinSpaced(m.dim(), 0.7, 1.3));
    Hamiltonian h(m, metric);
    NutsTransition nuts(h, 8);
    ReferenceNuts reference(h, 8);

    PhasePoint z(m.dim());
    z.q = m.initialPoint();
    z.q[0] += 0.2;
    h.updatePotential(z);
    rnd::Rng rngA = rnd::makeRng(77, 1);
    rnd::Rng rngB = rnd::makeRng(77, 1);
    int divergent = 0, maxDepthSeen = 0;
    for (int i = 0; i < 400; ++i) {
      PhasePoint other = z;
      const TransitionStats a = nuts.transition(z, eps, rngA);
      const TransitionStats b = reference.transition(other, eps, rngB);
      QCOMPARE(a.treeDepth, b.treeDepth);
      QCOMPARE(a.leapfrogSteps, b.leapfrogSteps);
      QCOMPARE(a.divergent, b.divergent);
      QVERIFY(std::abs(a.acceptStat - b.acceptStat) < 1e-12);
      QVERIFY2((z.q - other.q).norm() < 1e-12, qPrintable(QString("transition %1").arg(i)));
      QVERIFY(rngA == rngB);  // same number of random draws
      z = other;              // continue from the reference state (identical up to rounding)
      divergent += a.divergent;
      maxDepthSeen = std::max(maxDepthSeen, a.treeDepth);
    }
    QVERIFY(maxDepthSeen >= 3);  // the trees were deep enough to exercise the joins
    if (model == 2) QVERIFY(divergent > 0);
  }
};

QTEST_APPLESS_MAIN(NutsReferenceTest)
#include "nuts_reference_test.moc"
