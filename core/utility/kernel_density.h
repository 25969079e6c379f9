#pragma once
/// Gaussian kernel density estimation on an equally spaced grid, used by the studio's violin and
/// density plots. Qt-free so that the maths is tested with the rest of core.
#include <span>
#include <vector>

namespace dpsynth::core::utility {

/// A density evaluated on an equally spaced grid: density[k] estimates f(grid[k]).
struct DensityEstimate {
  std::vector<double> grid;
  std::vector<double> density;
  double bandwidth = 0;  ///< standard deviation of the Gaussian kernel
};

/// Silverman's rule of thumb (R's `bw.nrd0`): h = 0.9 · s · n^(−1/5) with s = min(sd, IQR/1.34),
/// sd the sample standard deviation (n − 1 denominator) and IQR the type-7 interquartile range.
/// The min() keeps the bandwidth small for skewed or heavy-tailed samples such as the by-record
/// Lipschitz bounds. Degenerate samples: when the IQR is 0, s = sd; when sd is 0 as well,
/// s = 1e-3·|mean| (or 1e-3 when the mean is 0 too), so the bandwidth is always positive.
/// Throws std::invalid_argument for an empty sample or non-finite values.
double silvermanBandwidth(std::span<const double> values);

/// Gaussian KDE of `values` on `gridSize` points spanning [lo, hi] (both included).
/// `bandwidth` ≤ 0 selects silvermanBandwidth(values). Values outside [lo, hi] still contribute
/// to the density inside it. Cost: O(n·gridSize) when n·gridSize ≤ 1e6 (exact); otherwise the
/// sample is linearly binned onto the grid (extended by the kernel's support) and the bin counts
/// are convolved with the kernel truncated at 6 bandwidths, O(n + gridSize·support).
/// Throws std::invalid_argument when values is empty or non-finite, gridSize < 2, or hi ≤ lo.
DensityEstimate kernelDensityOn(std::span<const double> values, double lo, double hi,
                                int gridSize = 512, double bandwidth = 0);

/// kernelDensityOn [min − cut·h, max + cut·h] (R's `density()` uses cut = 3).
DensityEstimate kernelDensity(std::span<const double> values, int gridSize = 512,
                              double bandwidth = 0, double cut = 3);

/// kernelDensity for values known to lie in [lower, upper] (either may be infinite): the grid
/// stops at the bounds, and the sample is reflected in each finite bound, so that the mass a
/// Gaussian kernel would put outside comes back inside (f̂(x) = Σ [K(x − v) + K(x − (2L − v)) +
/// K(x − (2U − v))] / nh). Without it a beta outcome's density falls to half its height at 0
/// and 1 and goes on below 0. Throws as kernelDensity, and when lower ≥ upper.
DensityEstimate kernelDensityWithin(std::span<const double> values, double lower, double upper,
                                    int gridSize = 512, double bandwidth = 0, double cut = 3);

}  // namespace dpsynth::core::utility
