#include "core/privacy/cell_envelope.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace dpsynth::core::privacy {

namespace {

constexpr double kEnvelopeNegInf = -std::numeric_limits<double>::infinity();

/// Cuts whose sums drift from their cells' weights are redone from scratch this often.
constexpr std::size_t kResumEvery = 1024;

/// An unbounded interval may also be cut so that 1/kFarShare of its probability stays outside.
constexpr double kFarShare = 1024.0;

bool inside(const PriorAxis& axis, double x) {
  if (!std::isfinite(x)) return false;
  switch (axis.kind()) {
    case PriorAxis::Kind::cauchy:
      return true;
    case PriorAxis::Kind::halfCauchy:
    case PriorAxis::Kind::paretoExcess:
      return x > 0.0;
    case PriorAxis::Kind::unit:
      return x > 0.0 && x < 1.0;
  }
  return false;
}

}  // namespace

CellEnvelope::CellEnvelope(const CellTarget& target, int perAxis, std::size_t maxCells,
                           double maxWork)
    : target_(target), maxCells_(maxCells), maxWork_(maxWork) {
  const int dim = target.dim();
  std::size_t initial = 1;
  for (int j = 0; j < dim; ++j) initial *= static_cast<std::size_t>(perAxis);
  if (perAxis < 1 || initial > maxCells)
    throw std::invalid_argument("CellEnvelope: the initial grid exceeds the cell budget");
  // Equal-probability cuts of each axis.
  std::vector<std::vector<double>> cuts(static_cast<std::size_t>(dim));
  for (int j = 0; j < dim; ++j) {
    const PriorAxis& axis = target.axis(j);
    auto& c = cuts[static_cast<std::size_t>(j)];
    c.push_back(axis.lowest());
    for (int k = 1; k < perAxis; ++k)
      c.push_back(axis.draw(axis.lowest(), axis.highest(), static_cast<double>(k) / perAxis));
    c.push_back(axis.highest());
  }
  cells_.reserve(initial);
  for (std::size_t flat = 0; flat < initial; ++flat) {
    Box box;
    std::size_t rest = flat;
    for (int j = 0; j < dim; ++j) {
      const std::size_t k = rest % static_cast<std::size_t>(perAxis);
      rest /= static_cast<std::size_t>(perAxis);
      box.lo[static_cast<std::size_t>(j)] = cuts[static_cast<std::size_t>(j)][k];
      box.hi[static_cast<std::size_t>(j)] = cuts[static_cast<std::size_t>(j)][k + 1];
    }
    Cell cell = makeCell(box);
    cells_.push_back(cell);
  }
  tree_.assign(maxCells_ + 1, 0.0);
  recomputeSums();
  for (std::size_t i = 0; i < cells_.size(); ++i) queue_.push({logGap(cells_[i]), i, 0});
  rebuildTree();
}

CellEnvelope::Cell CellEnvelope::makeCell(const Box& box) const {
  Cell cell;
  cell.box = box;
  for (int j = 0; j < target_.dim(); ++j) {
    const auto k = static_cast<std::size_t>(j);
    cell.logMass += std::log(target_.axis(j).mass(box.lo[k], box.hi[k]));
  }
  const BoxBound b = target_.bound(box);
  cell.upper = b.upper;
  cell.lower = b.lower;
  cell.spread = b.spread;
  return cell;
}

double CellEnvelope::weight(const Cell& c) const {
  if (!std::isfinite(c.logMass)) return 0.0;
  return std::exp(c.logMass + c.upper - ref_);
}

double CellEnvelope::lowWeight(const Cell& c) const {
  if (!std::isfinite(c.logMass) || !std::isfinite(c.lower)) return 0.0;
  return std::exp(c.logMass + c.lower - ref_);
}

bool CellEnvelope::budgetLeft() const { return cells_.size() < maxCells_ && work_ < maxWork_; }

double CellEnvelope::acceptanceBound() const {
  return upperSum_ > 0.0 ? std::min(1.0, lowerSum_ / upperSum_) : 0.0;
}

double CellEnvelope::logGap(const Cell& c) {
  // log(m·e^B − m·e^lower): the envelope weight the cell holds beyond what it surely accepts.
  const double top = c.logMass + c.upper;
  const double bottom = c.logMass + c.lower;
  if (!std::isfinite(bottom) || bottom < top - 40.0) return top;
  if (!(bottom < top)) return kEnvelopeNegInf;
  return top + std::log(-std::expm1(bottom - top));
}

void CellEnvelope::recomputeSums() {
  // The reference: the largest weight now (bounds only fall as cells are cut, so weights are
  // re-referenced whenever they have all become small).
  ref_ = kEnvelopeNegInf;
  for (const Cell& c : cells_) ref_ = std::max(ref_, c.logMass + c.upper);
  if (!std::isfinite(ref_)) throw std::logic_error("CellEnvelope: no cell has a finite bound");
  upperSum_ = lowerSum_ = 0.0;
  for (const Cell& c : cells_) {
    upperSum_ += weight(c);
    lowerSum_ += lowWeight(c);
  }
  lastSum_ = upperSum_;
  splitsSinceSum_ = 0;
}

void CellEnvelope::place(std::size_t index, Cell cell) {
  if (index == cells_.size()) {
    cells_.push_back(cell);
  } else {
    upperSum_ -= weight(cells_[index]);
    lowerSum_ -= lowWeight(cells_[index]);
    cell.version = cells_[index].version + 1;
    cells_[index] = cell;
  }
  upperSum_ += weight(cell);
  lowerSum_ += lowWeight(cell);
  if (cell.splittable) queue_.push({logGap(cell), index, cell.version});
}

bool CellEnvelope::split(std::size_t index) {
  const Cell parent = cells_[index];
  const int dim = target_.dim();
  struct Option {
    int axis;
    Cell children[2];
    double weight;
  };
  // When the parent's bound is the mean-value form and one axis carries most of its excess,
  // cut that axis without trying the other (half the bound evaluations); else try both.
  int only = -1;
  if (dim == 2 && parent.spread[0] + parent.spread[1] > 0.0) {
    if (parent.spread[0] > 4.0 * parent.spread[1]) only = 0;
    if (parent.spread[1] > 4.0 * parent.spread[0]) only = 1;
  }
  std::vector<Option> options;
  for (int j = 0; j < dim; ++j) {
    if (only >= 0 && j != only) continue;
    const auto k = static_cast<std::size_t>(j);
    const PriorAxis& axis = target_.axis(j);
    const double lo = parent.box.lo[k], hi = parent.box.hi[k];
    // The probability midpoint; on an unbounded interval also a cut that leaves only its
    // outermost 1/kFarShare of probability outside, so that the edge where a likelihood
    // spikes (λ or 1/σ → ∞ at a data point) is pushed out in few steps.
    double cuts[2] = {axis.split(lo, hi), std::nan("")};
    if (std::isinf(hi)) cuts[1] = axis.draw(lo, hi, 1.0 - 1.0 / kFarShare);
    if (std::isinf(lo)) cuts[1] = axis.draw(lo, hi, 1.0 / kFarShare);
    for (double cut : cuts) {
      if (!(cut > lo && cut < hi) || !(axis.mass(lo, cut) > 0.0) || !(axis.mass(cut, hi) > 0.0))
        continue;
      Box left = parent.box, right = parent.box;
      left.hi[k] = cut;
      right.lo[k] = cut;
      Option o{j, {makeCell(left), makeCell(right)}, 0.0};
      work_ += 2.0 * static_cast<double>(target_.cost());
      for (Cell& c : o.children) {
        // A bound of the parent holds on its parts too.
        c.upper = std::min(c.upper, parent.upper);
        c.lower = std::min(std::max(c.lower, parent.lower), c.upper);
        o.weight += weight(c);
      }
      options.push_back(o);
    }
  }
  if (options.empty()) {
    Cell stuck = parent;
    stuck.splittable = false;
    place(index, stuck);
    return false;
  }
  // The cut that leaves the least envelope weight. When no cut gains a tenth of the parent's
  // weight yet (the bound is still loose along both axes), the axis whose interval holds the
  // most base probability, i.e. the one cut least so far: axes take turns until one pays.
  const Option* best = &options.front();
  for (const Option& o : options)
    if (o.weight < best->weight) best = &o;
  if (options.size() > 1 && best->weight > 0.9 * weight(parent)) {
    const auto share = [&](const Option& o) {
      const auto k = static_cast<std::size_t>(o.axis);
      return target_.axis(o.axis).mass(parent.box.lo[k], parent.box.hi[k]);
    };
    best = &options.front();
    for (const Option& o : options)
      if (share(o) > share(*best)) best = &o;
  }
  place(index, best->children[0]);
  place(cells_.size(), best->children[1]);
  // Incremental sums lose precision as heavy parents are replaced by light children: redo them
  // regularly, and whenever they have shrunk (re-referencing the weights too).
  if (++splitsSinceSum_ >= kResumEvery || upperSum_ < 0.5 * lastSum_) recomputeSums();
  return true;
}

bool CellEnvelope::refine(double goal, const std::stop_token& stop) {
  while (acceptanceBound() < goal && budgetLeft() && !queue_.empty()) {
    if (stop.stop_requested()) return false;
    const Entry top = queue_.top();
    queue_.pop();
    if (top.version != cells_[top.index].version || !cells_[top.index].splittable) continue;
    split(top.index);
  }
  // Fresh sums and tree: proposals then use the cells' weights without accumulated rounding.
  recomputeSums();
  rebuildTree();
  return true;
}

void CellEnvelope::rebuildTree() {
  std::fill(tree_.begin(), tree_.end(), 0.0);
  for (std::size_t i = 0; i < cells_.size(); ++i) treeAdd(i, weight(cells_[i]));
  treeTotal_ = treePrefix(cells_.size());
}

double CellEnvelope::treePrefix(std::size_t count) const {
  double sum = 0.0;
  for (std::size_t i = count; i > 0; i -= i & (~i + 1)) sum += tree_[i];
  return sum;
}

void CellEnvelope::treeAdd(std::size_t index, double delta) {
  for (std::size_t i = index + 1; i < tree_.size(); i += i & (~i + 1)) tree_[i] += delta;
}

std::size_t CellEnvelope::treeFind(double target) const {
  std::size_t pos = 0;
  std::size_t step = 1;
  while (step * 2 < tree_.size()) step *= 2;
  for (; step > 0; step /= 2) {
    if (pos + step < tree_.size() && tree_[pos + step] <= target) {
      pos += step;
      target -= tree_[pos];
    }
  }
  return std::min(pos, cells_.size() - 1);  // pos is the 0-based index of the cell found
}

CellEnvelope::Proposal CellEnvelope::propose(random::Rng& rng) const {
  Proposal p;
  const std::size_t index = treeFind(random::uniform01(rng) * treeTotal_);
  const Cell& cell = cells_[index];
  p.bound = cell.upper;
  p.valid = weight(cell) > 0.0;
  for (int j = 0; j < target_.dim(); ++j) {
    const auto k = static_cast<std::size_t>(j);
    const PriorAxis& axis = target_.axis(j);
    p.theta[k] = axis.draw(cell.box.lo[k], cell.box.hi[k], random::uniformOpen01(rng));
    p.valid = p.valid && inside(axis, p.theta[k]);
  }
  return p;
}

}  // namespace dpsynth::core::privacy
