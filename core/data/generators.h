#pragma once
/// Synthetic "confidential" datasets for demos, tests and Monte Carlo studies. Each kind is
/// drawn from a documented distribution with our portable random numbers (core/random), so a
/// kind, size and seed give the same table, byte for byte once written, on every platform.
/// The files in resources/samples/ are generateSample(kind, defaultSampleSize(kind),
/// defaultSampleSeed(kind)) written with writeCsvAtomic.
#include <Eigen/Dense>
#include <cstddef>
#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

#include "core/data/csv_table.h"

namespace dpsynth::core::data {

/// The sample kinds, in a fixed order: "nbmix", "beta", "poisson", "salary".
///  - nbmix:   column `count`, each record from 0.2·NB(μ=100, φ=5) + 0.8·NB(μ=100, φ=20);
///  - beta:    column `value` ~ Beta(0.5, 3), strictly inside (0, 1);
///  - poisson: column `count` ~ Poisson(100);
///  - salary:  columns `gender` (F/M), `age_group` (16-24, 25-34, 35-49, 50-64),
///             `weeks_worked` (1..52, most near 52) and `salary` (log-normal, its log-mean
///             depending on the other three; 2 decimals).
std::vector<std::string> sampleKinds();

/// Draws n records of a kind from makeRng(seed). Throws std::invalid_argument for an unknown
/// kind (the message lists the known ones) or n == 0.
/// Checks `stop` every 2^14 records (10^6 salary records take about a second): throws
/// exec::Cancelled.
CsvTable generateSample(const std::string& kind, std::size_t n, std::uint64_t seed,
                        const std::stop_token& stop = {});

/// The values of a one-column kind (nbmix, beta, poisson) as numbers, without text: the same
/// draws as generateSample(kind, n, seed), equal to its values once parsed. For large generated
/// inputs (a million records as text is ~100 MB of strings). Throws std::invalid_argument for
/// an unknown or multi-column kind, or n == 0.
Eigen::VectorXd generateValues(const std::string& kind, std::size_t n, std::uint64_t seed);

/// The n of the bundled file: 2000 for beta, 1000 for the others.
std::size_t defaultSampleSize(const std::string& kind);
/// The seed of the bundled file: 20261122 + the kind's index in sampleKinds().
std::uint64_t defaultSampleSeed(const std::string& kind);
/// "resources/samples/<kind>.csv", relative to the repository (or installed data) root.
std::string samplePath(const std::string& kind);

}  // namespace dpsynth::core::data
