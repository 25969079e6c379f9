#pragma once
/// Vector kernels for the uncensored regression pass of the count and beta families: one
/// streaming pass over the design that forms η = x·c, the family's terms and the coefficient
/// gradient Σ w ∂f/∂η x, four (AVX2 + FMA) or eight (AVX-512) records at a time. The build
/// targets any x86-64, where Eigen's packets are SSE2 (two doubles, no FMA) and libm's exp and
/// log are scalar; the record arithmetic, not the sampler, is what a regression costs
/// (`dpsynth bench`, README). The instruction set is chosen once per process from the CPU
/// (cpuid), never from the data, so a run's output depends on the seed and the machine only.
///
/// Each kernel is compiled for its instruction set function by function (target attributes in
/// regression_kernels_x86.cpp), never with a whole-file -mavx2: a translation unit built with
/// wider flags would instantiate shared templates (Eigen's, the standard library's) that the
/// linker may then pick for the generic path too.
#include <cstddef>
#include <cstdint>

namespace dpsynth::core::models::kernels {

enum class Isa { generic, avx2, avx512 };

/// The instruction set the kernels use in this process: the widest the CPU supports, capped by
/// the environment variable DPSYNTH_SIMD (generic | avx2 | avx512; for tests and comparisons).
Isa activeIsa();
const char* isaName(Isa isa);
/// Tests only: use `isa` from now on in this process (capped by what the CPU supports).
void setIsaForTesting(Isa isa);

/// The design of a regression pass: column-major x (stride between columns), k columns,
/// records [0, n) with weights w > 0, and the coefficients c that form η = x·c. The records
/// come in cells (models/design_cells.h): the records of cell c, [cellStart[c] − origin,
/// cellStart[c + 1] − origin) clipped to [0, n), share the values cellValue[c·m, c·m + m) of
/// the m columns cellColumn, so their η starts from Σ_i cellValue[c·m + i]·c[cellColumn[i]] and
/// only the readColumns columns readColumn are read per record; those columns' gradient is the
/// cell's Σ w ∂f/∂η times its values. At 10⁶ records a pass is bound by memory: unitWeights
/// (every w is exactly 1) lets it skip reading the weights, with the same bits.
struct Design {
  const double* x = nullptr;
  std::ptrdiff_t stride = 0;
  int k = 0;
  std::ptrdiff_t n = 0;
  const double* weight = nullptr;
  const double* coef = nullptr;
  bool unitWeights = false;
  const int* readColumn = nullptr;
  int readColumns = 0;
  const int* cellColumn = nullptr;
  int cellColumns = 0;
  int cells = 0;
  const std::ptrdiff_t* cellStart = nullptr;  ///< cells + 1 boundaries
  const double* cellValue = nullptr;          ///< cells × cellColumns, row-major
  std::ptrdiff_t origin = 0;                  ///< the cellStart index of record 0
};

/// What a pass returns: Σ w f (without the family's constant terms, which the caller adds),
/// Σ w times the family's auxiliary part, and the gradient Σ w ∂f/∂η x into gradient[0, k).
struct PassSums {
  double logLik = 0.0;
  double aux = 0.0;
};

/// Poisson: Σ w f without its linear part, f − yη = −e^η (the caller adds Σ w yη = tᵀc with
/// t = xᵀ(w ⊙ y), and −Σ w lgamma(y + 1)); aux unused. The pass thus never reads y.
/// Returns false when the CPU has no vector kernel (the caller then uses the generic path).
bool poissonPass(const Design& design, PassSums& sums, double* gradient);

/// Negative binomial with log link, φ > 0: with d = η − log φ, f = φ·log(φ/(μ + φ)) +
/// y·log(μ/(μ + φ)) and aux = log(φ/(μ + φ)) + μ/(μ + φ) − y/(μ + φ) (the caller adds the
/// φ-terms of the outcomes, lgamma(y + φ) − lgamma(φ) − lgamma(y + 1) and ψ(y + φ) − ψ(φ)).
bool negbinPass(const Design& design, const double* y, double phi, double logPhi, PassSums& sums,
                double* gradient);

/// Beta with logit link, precision λ: with a = λφ, b = λ(1 − φ), φ = logistic(η),
/// f = −lgamma(a) − lgamma(b) + (a − 1)·log y + (b − 1)·log(1 − y) and aux =
/// −φψ(a) − (1 − φ)ψ(b) + φ·log y + (1 − φ)·log(1 − y) (the caller adds lgamma(λ) and ψ(λ)).
bool betaPass(const Design& design, const double* logY, const double* log1mY, double lambda,
              PassSums& sums, double* gradient);

/// Each record's log-likelihood without the family's constant terms, into out[0, n) (weights
/// unused): the Lipschitz pass. η is summed in a fixed order (the cell's offset, then the read
/// columns in order), so a record's value does not depend on where its range starts. False when the
/// CPU has no vector kernel.
/// Poisson's values are whole: f = yη − e^η − lgamma(y + 1), logGammaY1 per record.
bool poissonValues(const Design& design, const double* y, const double* logGammaY1, double* out);
bool negbinValues(const Design& design, const double* y, double phi, double logPhi, double* out);
/// The negbin values with their outcome terms: out = f + (table[index] − logGammaY1), the
/// φ-terms of each record's outcome gathered from the call's table (index per record, in
/// doubles) and lgamma(y + 1) per record.
bool negbinTableValues(const Design& design, const double* y, double phi, double logPhi,
                       const double* table, const std::int32_t* index, const double* logGammaY1,
                       double* out);
bool betaValues(const Design& design, const double* logY, const double* log1mY, double lambda,
                double* out);

/// The Lipschitz pass's fold of one tile of records, one contribution group per record and no
/// censoring: with c_i = |α_i f_i| (exactly 0 where α_i = 0, +∞ where the product is NaN, so
/// that an undefined value counts as unbounded), perGroup[i] = max(perGroup[i], c_i) for i in
/// [0, n), and largest = max(0, max_i c_i). Maxima are exact: the same bits as a scalar loop.
bool foldContributions(const double* alpha, const double* f, std::size_t n, double* perGroup,
                       double& largest);

/// e^x and log x of n values (tests: the kernels' elementary functions against libm).
bool expValues(const double* x, std::size_t n, double* out);
bool logValues(const double* x, std::size_t n, double* out);
/// log1p x of n values in [0, 1], as negbin's pass forms it (tests).
bool log1pUnitValues(const double* x, std::size_t n, double* out);
/// log x of n values as log Γ forms it, accurate in absolute terms (tests).
bool logAbsoluteValues(const double* x, std::size_t n, double* out);
/// log Γ(x) and ψ(x) of n values, x > 0 (negbin's φ-terms, and the tests).
bool logGammaDigammaValues(const double* x, std::size_t n, double* logGamma, double* psi);

}  // namespace dpsynth::core::models::kernels
