#pragma once
/// Empirical disclosure risk of one synthetic file against the confidential data (SPEC §0: these
/// are computed from the confidential data, so they are internal numbers, never released). The
/// intruder knows a record's keys (its declared covariates) and wants its outcome. Outcomes are
/// compared within a relative tolerance τ: a and b match when |a − b| ≤ τ·max(|a|, |b|) (so 0
/// matches 0 only). Definitions, after synthpop's disclosure measures and the DCR literature:
///   - replicated_uniques: among confidential records unique on keys + outcome (no other
///     confidential record with the same keys and a matching outcome), the share with exactly
///     one synthetic record of the same keys and a matching outcome;
///   - attribute_cap: among confidential records with at least one synthetic record of the same
///     keys, the share whose outcome matches the median outcome of those synthetic records
///     (correct attribution probability, TCAP-style);
///   - attribute_cap_baseline: over the same records, the share matched by the median of the
///     confidential outcomes, a guess made without the synthetic file; the difference is what
///     the file adds;
///   - dcr_share: the share of synthetic records whose outcome is closer to a confidential
///     record's of the same keys than the 5th percentile of the confidential records' distances
///     to their nearest other confidential record of the same keys (about 0.05 for a file as far
///     from the records as they are from each other; 1 for a copy).
/// Each is nullopt where it is undefined (no unique record, no matched record, fewer than two
/// confidential records sharing keys).
#include <Eigen/Dense>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace dpsynth::core::utility {

inline constexpr double kDefaultRiskTolerance = 0.05;

struct DisclosureRisk {
  std::optional<double> replicatedUniques, attributeCap, attributeCapBaseline, dcrShare;
  std::size_t uniques = 0;  ///< confidential records unique on keys + outcome
  std::size_t matched = 0;  ///< confidential records whose keys occur in the synthetic file
};

/// keysConf[i] / keysSyn[r]: the keys of each record as one string (any encoding that is equal
/// exactly when the keys are); both empty when there are no keys (one group: no string per
/// record is made for 10^7 records). Throws std::invalid_argument for mismatched sizes or τ
/// outside [0, 1); exec::Cancelled on `stop`.
DisclosureRisk measureDisclosureRisk(const std::vector<std::string>& keysConf,
                                     const Eigen::VectorXd& yConf,
                                     const std::vector<std::string>& keysSyn,
                                     const Eigen::VectorXd& ySyn,
                                     double tolerance = kDefaultRiskTolerance,
                                     const std::stop_token& stop = {});

/// The same with each record's keys as a group number (equal exactly when the keys are): a
/// few bytes per record where strings cost tens (10^6 records with continuous covariates).
DisclosureRisk measureDisclosureRiskByGroup(const std::vector<std::uint32_t>& groupsConf,
                                            const Eigen::VectorXd& yConf,
                                            const std::vector<std::uint32_t>& groupsSyn,
                                            const Eigen::VectorXd& ySyn,
                                            double tolerance = kDefaultRiskTolerance,
                                            const std::stop_token& stop = {});

}  // namespace dpsynth::core::utility
