#pragma once
/// The size a release publishes (SPEC §0 "The size of the data"). Under add-remove neighbours
/// the number of records n is itself confidential (a neighbour has one record more or fewer),
/// and under replace-one so is the number of complete records left after dropping records with
/// missing values (replacing one record can make it complete or incomplete). Everything a
/// release publishes that depends on the size (the synthetic files' row counts, the sidecar's
/// and the histogram release's "n", the default number of histogram bins) then uses either
///   - a noisy size ñ = max(1, n + K) with K two-sided geometric, P(K = k) ∝ exp(−ε_n |k|):
///     ε_n-DP for a count of L1 sensitivity 1, spent once per run and added to every published
///     ε (the clamp at 1 is post-processing), or
///   - a size the user declares public (`--rows N`), which the release uses as it is: chosen
///     without looking at the data, it reveals nothing about them.
/// Only when n is public (replace-one, no record dropped by a missing-value rule) is n itself
/// used, and then only when no size was declared.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/privacy/neighbours.h"
#include "core/privacy/perturbed_histogram.h"

namespace dpsynth::core::privacy {

/// ε_n when the user gives none: a fixed public figure, so that the row count moves by a
/// standard deviation of about √(2e^{−0.1})/(1 − e^{−0.1}) ≈ 14 records and 0.1 is added to
/// every published ε. A fixed value (rather than a fraction of each mechanism's ε) lets one
/// noisy size serve every mechanism of a run, aDP ones included.
inline constexpr double kDefaultSizeEpsilon = 0.1;
/// The largest declared size: synthetic files of more rows are not a release anyone reads.
inline constexpr std::size_t kMaxDeclaredRows = 100'000'000;

/// Run settings for the published size.
struct SizeSettings {
  /// A size the user declares public (`--rows N`): the number of synthetic records of every
  /// dataset, whatever the data's n. nullopt: n when it is public, the noisy ñ otherwise.
  std::optional<std::size_t> declaredRows;
  /// ε_n of the noisy size (used only when the size is confidential and none is declared).
  double epsilon = kDefaultSizeEpsilon;

  /// One plain-language problem per fault (declared rows outside 1..kMaxDeclaredRows, ε_n not a
  /// finite number in [1e-6, 1e6]); empty when usable.
  std::vector<std::string> validate() const;
};

/// Where a published size comes from; the JSON spelling is sizeSourceName().
enum class SizeSource {
  publicSize,  ///< the data's n, public under replace-one: "public (replace-one)"
  noisy,       ///< ñ = max(1, n + two-sided geometric noise at ε_n): "noisy"
  declared,    ///< a size the user declared public: "declared"
};
std::string sizeSourceName(SizeSource source);
/// Inverse of sizeSourceName; throws std::invalid_argument naming the three spellings.
SizeSource parseSizeSource(const std::string& name);

/// The size everything a release publishes uses.
struct PublishedSize {
  /// Records per synthetic dataset and the "n" of published files. 0 only in a default-made
  /// value (code that builds results by hand): readers then take the data's n (see rowsFor).
  std::size_t rows = 0;
  SizeSource source = SizeSource::publicSize;
  /// ε_n spent on the size: > 0 only for a noisy size.
  double epsilon = 0.0;

  /// rows, or n for a default-made value.
  std::size_t rowsFor(std::size_t n) const { return rows > 0 ? rows : n; }
  /// One sentence for sidecars and notes: where the number of records comes from.
  std::string meaning() const;
};

/// True when n may not be published as it is: add-remove neighbours, or records dropped by a
/// missing-value rule (completeCasesOnly: the count of complete records is confidential under
/// either relation, even when none was dropped).
bool sizeIsConfidential(Neighbours neighbours, bool completeCasesOnly);

/// Two-sided geometric noise for a count of L1 sensitivity 1 at ε: P(K = k) =
/// (1 − α)/(1 + α) · α^|k| with α = e^{−t}, t = ε rounded down to a multiple of 1e-6 (so the
/// guarantee never exceeds ε). It is the discrete Laplace distribution, drawn exactly from
/// `bits` (discreteLaplace). Throws std::invalid_argument for an ε that is not finite and > 0,
/// or below 1e-6.
std::int64_t sizeNoise(BitSource& bits, double epsilon);

/// The size a run publishes for data of n records: the declared size when there is one;
/// otherwise n when it is public (sizeIsConfidential false); otherwise ñ = max(1, n + K) with
/// K = sizeNoise(bits, settings.epsilon). `bits` is read only for a noisy size: a release passes
/// the operating system's source, a seeded study/test run a seeded one. Throws
/// std::invalid_argument for settings that do not validate.
PublishedSize publishSize(std::size_t n, const SizeSettings& settings, Neighbours neighbours,
                          bool completeCasesOnly, BitSource& bits);

}  // namespace dpsynth::core::privacy
