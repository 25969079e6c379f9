#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "core/models/regression_kernels.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#include <atomic>

// Each instruction set's code sits in a region whose functions all carry its target attribute
// (the pragmas below), in a namespace of its own: nothing in it is shared with code compiled for
// plain x86-64.
#if defined(__clang__)
// _Pragma takes one string literal, which must not be split.
// clang-format off
#define DPSYNTH_TARGET_BEGIN_AVX2 _Pragma("clang attribute push(__attribute__((target(\"avx2,fma\"))), apply_to = function)")
#define DPSYNTH_TARGET_BEGIN_AVX512 _Pragma("clang attribute push(__attribute__((target(\"avx512f,avx512dq,avx2,fma\"))), apply_to = function)")
// clang-format on
#define DPSYNTH_TARGET_END _Pragma("clang attribute pop")
// The AVX-512 lanes are arrays of registers indexed in loops: under UBSan (the sanitizer build)
// clang checked every index before unrolling, and the file took over 15 minutes to compile
// instead of one. The kernels' arithmetic is checked against the generic code in the tests.
// clang-format off
#define DPSYNTH_UNCHECKED_BEGIN _Pragma("clang attribute push(__attribute__((no_sanitize(\"undefined\"))), apply_to = function)")
// clang-format on
#define DPSYNTH_UNCHECKED_END _Pragma("clang attribute pop")
#else
#define DPSYNTH_UNCHECKED_BEGIN
#define DPSYNTH_UNCHECKED_END
#define DPSYNTH_TARGET_BEGIN_AVX2 _Pragma("GCC push_options") _Pragma("GCC target(\"avx2,fma\")")
#define DPSYNTH_TARGET_BEGIN_AVX512 \
  _Pragma("GCC push_options") _Pragma("GCC target(\"avx512f,avx512dq,avx2,fma\")")
#define DPSYNTH_TARGET_END _Pragma("GCC pop_options")
#endif

// The elementary functions and a family's terms are inlined into the pass: called, each would
// pass its vectors through the stack.
#define DPSYNTH_KERNEL_INLINE inline __attribute__((always_inline))

namespace dpsynth::core::models::kernels {

DPSYNTH_TARGET_BEGIN_AVX2
namespace avx2 {

/// Two registers per value, eight records per step, for the reason given at avx512::Lanes.
inline constexpr int kWidth = 8;
struct Lanes {
  __m256d a, b;
};
struct Mask {
  __m256d a, b;
};

/// All-ones in the lanes below count (count may be ≤ 0 or ≥ 4).
inline __m256i firstLanes(int count) {
  return _mm256_cmpgt_epi64(_mm256_set1_epi64x(count), _mm256_set_epi64x(3, 2, 1, 0));
}
inline Lanes splat(double x) {
  const __m256d v = _mm256_set1_pd(x);
  return {v, v};
}
inline Lanes load(const double* p) { return {_mm256_loadu_pd(p), _mm256_loadu_pd(p + 4)}; }
/// Masked-off lanes are neither read nor faulted on.
inline Lanes loadPartial(const double* p, int count) {
  return {_mm256_maskload_pd(p, firstLanes(count)),
          _mm256_maskload_pd(p + 4, firstLanes(count - 4))};
}
/// Set in the lanes below count.
inline Mask firstMask(int count) {
  return {_mm256_castsi256_pd(firstLanes(count)), _mm256_castsi256_pd(firstLanes(count - 4))};
}
/// base[index[l]] for the eight lanes l.
inline Lanes gather(const double* base, const std::int32_t* index) {
  return {
      _mm256_i32gather_pd(base, _mm_loadu_si128(reinterpret_cast<const __m128i*>(index)), 8),
      _mm256_i32gather_pd(base, _mm_loadu_si128(reinterpret_cast<const __m128i*>(index + 4)), 8)};
}
inline void store(double* p, Lanes x) {
  _mm256_storeu_pd(p, x.a);
  _mm256_storeu_pd(p + 4, x.b);
}
inline void storePartial(double* p, int count, Lanes x) {
  _mm256_maskstore_pd(p, firstLanes(count), x.a);
  _mm256_maskstore_pd(p + 4, firstLanes(count - 4), x.b);
}
inline Lanes operator+(Lanes x, Lanes y) {
  return {_mm256_add_pd(x.a, y.a), _mm256_add_pd(x.b, y.b)};
}
inline Lanes operator-(Lanes x, Lanes y) {
  return {_mm256_sub_pd(x.a, y.a), _mm256_sub_pd(x.b, y.b)};
}
inline Lanes operator*(Lanes x, Lanes y) {
  return {_mm256_mul_pd(x.a, y.a), _mm256_mul_pd(x.b, y.b)};
}
/// 1/x, correctly rounded (AVX2 has no double-precision reciprocal estimate).
inline Lanes reciprocal(Lanes x) {
  const __m256d one = _mm256_set1_pd(1.0);
  return {_mm256_div_pd(one, x.a), _mm256_div_pd(one, x.b)};
}
/// x·y + z and z − x·y, each rounded once.
inline Lanes fma(Lanes x, Lanes y, Lanes z) {
  return {_mm256_fmadd_pd(x.a, y.a, z.a), _mm256_fmadd_pd(x.b, y.b, z.b)};
}
inline Lanes fnma(Lanes x, Lanes y, Lanes z) {
  return {_mm256_fnmadd_pd(x.a, y.a, z.a), _mm256_fnmadd_pd(x.b, y.b, z.b)};
}
/// NaN in x gives y (the instruction's rule); callers that need NaN restore it with unordered().
inline Lanes max(Lanes x, Lanes y) { return {_mm256_max_pd(x.a, y.a), _mm256_max_pd(x.b, y.b)}; }
inline Lanes min(Lanes x, Lanes y) { return {_mm256_min_pd(x.a, y.a), _mm256_min_pd(x.b, y.b)}; }
inline Lanes abs(Lanes x) {
  const __m256d sign = _mm256_set1_pd(-0.0);
  return {_mm256_andnot_pd(sign, x.a), _mm256_andnot_pd(sign, x.b)};
}
inline Mask greater(Lanes x, Lanes y) {
  return {_mm256_cmp_pd(x.a, y.a, _CMP_GT_OQ), _mm256_cmp_pd(x.b, y.b, _CMP_GT_OQ)};
}
inline Mask less(Lanes x, Lanes y) {
  return {_mm256_cmp_pd(x.a, y.a, _CMP_LT_OQ), _mm256_cmp_pd(x.b, y.b, _CMP_LT_OQ)};
}
inline Mask equal(Lanes x, Lanes y) {
  return {_mm256_cmp_pd(x.a, y.a, _CMP_EQ_OQ), _mm256_cmp_pd(x.b, y.b, _CMP_EQ_OQ)};
}
inline Mask unordered(Lanes x) {
  return {_mm256_cmp_pd(x.a, x.a, _CMP_UNORD_Q), _mm256_cmp_pd(x.b, x.b, _CMP_UNORD_Q)};
}
inline Mask either(Mask x, Mask y) { return {_mm256_or_pd(x.a, y.a), _mm256_or_pd(x.b, y.b)}; }
/// x where m is set, else y.
inline Lanes select(Mask m, Lanes x, Lanes y) {
  return {_mm256_blendv_pd(y.a, x.a, m.a), _mm256_blendv_pd(y.b, x.b, m.b)};
}
inline Lanes floorLanes(Lanes x) {
  constexpr int kMode = _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC;
  return {_mm256_round_pd(x.a, kMode), _mm256_round_pd(x.b, kMode)};
}
/// 2^k for integral k in [−1022, 1023]: k + 1023 placed in the exponent field (the sum with
/// 1.5·2⁵² leaves it in the low bits).
inline __m256d pow2One(__m256d k) {
  const __m256d t = _mm256_add_pd(k, _mm256_set1_pd(0x1.8p52 + 1023.0));
  return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_castpd_si256(t), 52));
}
inline Lanes pow2(Lanes k) { return {pow2One(k.a), pow2One(k.b)}; }
/// The biased exponent field of x ≥ 0, as a double.
inline __m256d exponentOne(__m256d x) {
  const __m256i e = _mm256_srli_epi64(_mm256_castpd_si256(x), 52);
  const __m256d biased =
      _mm256_castsi256_pd(_mm256_or_si256(e, _mm256_castpd_si256(_mm256_set1_pd(0x1p52))));
  return _mm256_sub_pd(biased, _mm256_set1_pd(0x1p52));
}
inline Lanes exponentOf(Lanes x) { return {exponentOne(x.a), exponentOne(x.b)}; }
/// x's significand as a value in [1, 2).
inline __m256d mantissaOne(__m256d x) {
  const __m256i bits = _mm256_castpd_si256(x);
  const __m256i m = _mm256_and_si256(bits, _mm256_set1_epi64x(0x000FFFFFFFFFFFFFLL));
  return _mm256_castsi256_pd(_mm256_or_si256(m, _mm256_set1_epi64x(0x3FF0000000000000LL)));
}
inline Lanes mantissaOf(Lanes x) { return {mantissaOne(x.a), mantissaOne(x.b)}; }
/// expLanes's table has one entry, 2⁰: a lookup across registers would cost more than the
/// longer polynomial it saves.
inline constexpr int kExpTableBits = 0;
inline Lanes exp2Fraction(Lanes) { return splat(1.0); }
/// p·2^n for integral n in [−1076, 1025] (with one table entry, s = n), rounded once:
/// 2^⌊n/2⌋·2^(n − ⌊n/2⌋), so that results in the subnormal range and at the edge of overflow
/// need no special case.
inline Lanes scaleFloorPow2(Lanes p, Lanes n) {
  const Lanes k1 = floorLanes(n * splat(0.5));
  return (p * pow2(k1)) * pow2(n - k1);
}
/// x's significand m in (√2/2, √2] and exponent e, x = 2^e·m; x positive, normal and finite.
inline Lanes splitSignificand(Lanes x, Lanes& e) {
  Lanes m = mantissaOf(x);
  const Mask high = greater(m, splat(1.41421356237309504880));
  e = exponentOf(x) - splat(1023.0);
  e = select(high, e + splat(1.0), e);
  return select(high, m * splat(0.5), m);
}
/// x = 2^e·m with m in [1, 2); x positive, normal and finite (logAbsolute's other path, which
/// AVX2 does not take: see kLogByUnitTable).
inline Lanes unitSignificand(Lanes x, Lanes& e) {
  e = exponentOf(x) - splat(1023.0);
  return mantissaOf(x);
}
/// log1pUnit is itself a log here, so logAbsolute keeps the series (logLanes and logNormal).
inline constexpr bool kLogByUnitTable = false;
/// The lanes' sum in a fixed order.
inline double sum(Lanes x) {
  alignas(32) double v[4];
  _mm256_store_pd(v, _mm256_add_pd(x.a, x.b));
  return (v[0] + v[1]) + (v[2] + v[3]);
}

DPSYNTH_KERNEL_INLINE Lanes logNormal(Lanes x);  // regression_kernel_body.inc
/// log1p(e) for e in [0, 1]: log u for u = 1 + e, less what rounding u lost (AVX-512's table of
/// centres needs a 16-entry permute that AVX2 lacks).
DPSYNTH_KERNEL_INLINE Lanes log1pUnit(Lanes e) {
  const Lanes u = splat(1.0) + e;
  return logNormal(u) - ((u - splat(1.0)) - e) * reciprocal(u);
}

#include "core/models/regression_kernel_body.inc"

}  // namespace avx2
DPSYNTH_TARGET_END

DPSYNTH_TARGET_BEGIN_AVX512
DPSYNTH_UNCHECKED_BEGIN
/// kRegs registers per value, 8·kRegs records per step: a packet's terms are one long chain of
/// dependent operations (exp, log, log Γ and ψ), longer than the processor's window can overlap
/// with the next packet's, so each operation issues kRegs independent instructions instead.
/// Two registers took the beta pass from 30 to 24 µs at n = 1500; four take the negbin pass at
/// 10⁶ records from about 6 to 4.5 ms, but cost more in the partial packet that ends each cell,
/// so designs whose cells are short (a survey design's dozen cells of ~100 records) keep two.
namespace avx512 {
inline constexpr int kRegs = 2;
#include "core/models/regression_kernel_avx512_lanes.inc"
#include "core/models/regression_kernel_body.inc"
}  // namespace avx512
namespace avx512wide {
inline constexpr int kRegs = 4;
#include "core/models/regression_kernel_avx512_lanes.inc"
#include "core/models/regression_kernel_body.inc"
}  // namespace avx512wide
DPSYNTH_UNCHECKED_END
DPSYNTH_TARGET_END

namespace {

Isa supportedIsa() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    return Isa::avx512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Isa::avx2;
  return Isa::generic;
}

Isa capped(Isa wanted) {
  const Isa supported = supportedIsa();
  return static_cast<int>(wanted) < static_cast<int>(supported) ? wanted : supported;
}

Isa fromEnvironment() {
  const char* value = std::getenv("DPSYNTH_SIMD");
  if (value == nullptr || *value == '\0') return supportedIsa();
  if (std::strcmp(value, "generic") == 0) return Isa::generic;
  if (std::strcmp(value, "avx2") == 0) return capped(Isa::avx2);
  return capped(Isa::avx512);
}

std::atomic<int>& activeSlot() {
  static std::atomic<int> slot{static_cast<int>(fromEnvironment())};
  return slot;
}

}  // namespace

Isa activeIsa() { return static_cast<Isa>(activeSlot().load(std::memory_order_relaxed)); }

void setIsaForTesting(Isa isa) {
  activeSlot().store(static_cast<int>(capped(isa)), std::memory_order_relaxed);
}

// One switch per entry point: the generic case returns false and the caller's own code runs.
/// The wide AVX-512 packets pay where cells are long: at least this many records per cell on
/// average (a design's cells come from its data, so the choice is the same on every run).
namespace {
constexpr std::ptrdiff_t kWideCellRecords = 512;
bool wide(const Design& design) {
  return design.cells > 0 && design.n >= kWideCellRecords * design.cells;
}
}  // namespace

#define DPSYNTH_DISPATCH(call)                               \
  switch (activeIsa()) {                                     \
    case Isa::avx512:                                        \
      return wide(design) ? avx512wide::call : avx512::call; \
    case Isa::avx2:                                          \
      return avx2::call;                                     \
    case Isa::generic:                                       \
      break;                                                 \
  }                                                          \
  return false;

bool poissonPass(const Design& design, PassSums& sums, double* gradient) {
  DPSYNTH_DISPATCH(poisson(design, sums, gradient))
}

bool negbinPass(const Design& design, const double* y, double phi, double logPhi, PassSums& sums,
                double* gradient) {
  DPSYNTH_DISPATCH(negbin(design, y, phi, logPhi, sums, gradient))
}

bool betaPass(const Design& design, const double* logY, const double* log1mY, double lambda,
              PassSums& sums, double* gradient) {
  DPSYNTH_DISPATCH(beta(design, logY, log1mY, lambda, sums, gradient))
}

bool poissonValues(const Design& design, const double* y, const double* logGammaY1, double* out) {
  DPSYNTH_DISPATCH(poissonValues(design, y, logGammaY1, out))
}
bool negbinValues(const Design& design, const double* y, double phi, double logPhi, double* out) {
  DPSYNTH_DISPATCH(negbinValues(design, y, phi, logPhi, out))
}
bool betaValues(const Design& design, const double* logY, const double* log1mY, double lambda,
                double* out) {
  DPSYNTH_DISPATCH(betaValues(design, logY, log1mY, lambda, out))
}
bool negbinTableValues(const Design& design, const double* y, double phi, double logPhi,
                       const double* table, const std::int32_t* index, const double* logGammaY1,
                       double* out) {
  DPSYNTH_DISPATCH(negbinTableValues(design, y, phi, logPhi, table, index, logGammaY1, out))
}

#undef DPSYNTH_DISPATCH

// The elementwise helpers and the fold return void per instruction set; wrap them the same way.
#define DPSYNTH_DISPATCH_VOID(call) \
  switch (activeIsa()) {            \
    case Isa::avx512:               \
      avx512::call;                 \
      return true;                  \
    case Isa::avx2:                 \
      avx2::call;                   \
      return true;                  \
    case Isa::generic:              \
      break;                        \
  }                                 \
  return false;

bool expValues(const double* x, std::size_t n, double* out) {
  DPSYNTH_DISPATCH_VOID(expValues(x, n, out))
}
bool logValues(const double* x, std::size_t n, double* out) {
  DPSYNTH_DISPATCH_VOID(logValues(x, n, out))
}
bool log1pUnitValues(const double* x, std::size_t n, double* out) {
  DPSYNTH_DISPATCH_VOID(log1pUnitValues(x, n, out))
}
bool logAbsoluteValues(const double* x, std::size_t n, double* out) {
  DPSYNTH_DISPATCH_VOID(logAbsoluteValues(x, n, out))
}
bool logGammaDigammaValues(const double* x, std::size_t n, double* logGamma, double* psi) {
  DPSYNTH_DISPATCH_VOID(logGammaDigammaValues(x, n, logGamma, psi))
}
bool foldContributions(const double* alpha, const double* f, std::size_t n, double* perGroup,
                       double& largest) {
  DPSYNTH_DISPATCH_VOID(foldContributions(alpha, f, n, perGroup, largest))
}

#undef DPSYNTH_DISPATCH_VOID

}  // namespace dpsynth::core::models::kernels

#else  // not x86-64: every caller keeps its generic path

namespace dpsynth::core::models::kernels {

Isa activeIsa() { return Isa::generic; }
void setIsaForTesting(Isa) {}
bool poissonPass(const Design&, PassSums&, double*) { return false; }
bool negbinPass(const Design&, const double*, double, double, PassSums&, double*) { return false; }
bool betaPass(const Design&, const double*, const double*, double, PassSums&, double*) {
  return false;
}
bool poissonValues(const Design&, const double*, const double*, double*) { return false; }
bool negbinValues(const Design&, const double*, double, double, double*) { return false; }
bool betaValues(const Design&, const double*, const double*, double, double*) { return false; }
bool negbinTableValues(const Design&, const double*, double, double, const double*,
                       const std::int32_t*, const double*, double*) {
  return false;
}
bool expValues(const double*, std::size_t, double*) { return false; }
bool logValues(const double*, std::size_t, double*) { return false; }
bool log1pUnitValues(const double*, std::size_t, double*) { return false; }
bool logAbsoluteValues(const double*, std::size_t, double*) { return false; }
bool logGammaDigammaValues(const double*, std::size_t, double*, double*) { return false; }
bool foldContributions(const double*, const double*, std::size_t, double*, double&) {
  return false;
}

}  // namespace dpsynth::core::models::kernels

#endif

namespace dpsynth::core::models::kernels {

const char* isaName(Isa isa) {
  switch (isa) {
    case Isa::avx512:
      return "avx512";
    case Isa::avx2:
      return "avx2";
    case Isa::generic:
      break;
  }
  return "generic";
}

}  // namespace dpsynth::core::models::kernels
