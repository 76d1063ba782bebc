// multinomial_custom and randperm_custom: sampling from the counter-based Philox
// stream (kernels/philox.h), so the draws depend only on (seed, offset) and the
// element they belong to.
//
// multinomial: each block takes a range of the rows of prob [rows, n] (float32 or
// double, read in double). With replacement, sample j of row r inverts the row's
// cumulative weights at the uniform of Philox block r * samples + j (a binary search
// over the running sums the block builds in its scratch row). Without replacement,
// category c of row r gets the key E / w (E exponential from Philox block r * n + c;
// "exponential races"): the samples categories with the smallest keys are a draw
// without replacement proportional to the weights, in order of their keys. A weight
// that is negative, infinite or NaN, a row without positive weight, or fewer positive
// weights than samples without replacement fail the kernel.
// randperm: one block gives every i < n a 64-bit key from Philox block i and sorts
// 0..n-1 by (key, i).
#include <math.h>

#include <algorithm>
#include <numeric>
#include <type_traits>
#include <vector>

#include "ascendc_sim/kernel/trap.h"
#include "ascendc_sim/launch.h"
#include "common/error.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_helpers.h"
#include "kernels/philox.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct MultinomialTiling {
  int64_t rows = 0, n = 0, samples = 0, rowsPerBlock = 0;
  bool replacement = false;
  PhiloxArgs rng;
};

template <typename P>
__global__ __aicore__ void multinomial_custom(GM_ADDR prob, GM_ADDR out, GM_ADDR scratch, MultinomialTiling t) {
  const uint32_t block = static_cast<uint32_t>(AscendC::GetBlockIdx());
  const int64_t first = static_cast<int64_t>(block) * t.rowsPerBlock;
  const int64_t last = std::min(t.rows, first + t.rowsPerBlock);
  const P* p = reinterpret_cast<const P*>(prob);
  int64_t* y = reinterpret_cast<int64_t*>(out);
  double* work = reinterpret_cast<double*>(scratch) + static_cast<int64_t>(block) * t.n;  // this block's row
  for (int64_t r = first; r < last; ++r) {
    const P* row = p + r * t.n;
    double total = 0.0;
    int64_t positive = 0;
    for (int64_t c = 0; c < t.n; ++c) {
      const double w = static_cast<double>(row[c]);
      if (!(w >= 0.0) || isinf(w)) {
        KernelFail("multinomial: probability tensor contains either `inf`, `nan` or element < 0");
      }
      total += w;
      positive += w > 0.0 ? 1 : 0;
      work[c] = t.replacement ? total : w;
    }
    if (!(total > 0.0)) KernelFail("multinomial: invalid multinomial distribution (sum of probabilities <= 0)");
    int64_t* yr = y + r * t.samples;
    if (t.replacement) {
      for (int64_t j = 0; j < t.samples; ++j) {
        const PhiloxBlock b = Philox4x32_10(static_cast<uint64_t>(r * t.samples + j), t.rng);
        const double u = UniformDouble(b.w[0], b.w[1]) * total;
        // the first category whose running sum exceeds u (a zero weight is never chosen)
        int64_t lo = 0, hi = t.n - 1;
        while (lo < hi) {
          const int64_t mid = (lo + hi) / 2;
          if (work[mid] > u) hi = mid; else lo = mid + 1;
        }
        while (lo > 0 && static_cast<double>(row[lo]) == 0.0) --lo;
        while (static_cast<double>(row[lo]) == 0.0 && lo + 1 < t.n) ++lo;
        yr[j] = lo;
      }
      continue;
    }
    if (positive < t.samples) {
      KernelFail("multinomial: invalid multinomial distribution (with replacement=False, not enough non-negative "
                 "category to sample)");
    }
    for (int64_t c = 0; c < t.n; ++c) {
      const PhiloxBlock b = Philox4x32_10(static_cast<uint64_t>(r * t.n + c), t.rng);
      const double e = -log1p(-UniformDouble(b.w[0], b.w[1]));
      work[c] = work[c] > 0.0 ? e / work[c] : INFINITY;
    }
    for (int64_t j = 0; j < t.samples; ++j) {  // the smallest keys in order
      int64_t best = -1;
      for (int64_t c = 0; c < t.n; ++c) {
        if (work[c] >= 0.0 && (best < 0 || work[c] < work[best])) best = c;
      }
      yr[j] = best;
      work[best] = -1.0;  // taken
    }
  }
}

template <typename T>
__global__ __aicore__ void randperm_custom(GM_ADDR out, GM_ADDR scratch, int64_t n, PhiloxArgs rng) {
  uint64_t* keys = reinterpret_cast<uint64_t*>(scratch);
  int64_t* order = reinterpret_cast<int64_t*>(scratch) + n;
  for (int64_t i = 0; i < n; ++i) {
    const PhiloxBlock b = Philox4x32_10(static_cast<uint64_t>(i), rng);
    keys[i] = static_cast<uint64_t>(b.w[0]) << 32 | b.w[1];
    order[i] = i;
  }
  std::sort(order, order + n, [keys](int64_t a, int64_t b) { return keys[a] < keys[b] || (keys[a] == keys[b] && a < b); });
  T* y = reinterpret_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) y[i] = static_cast<T>(order[i]);
}

}  // namespace

aclError LaunchMultinomial(const MultinomialArgs& args, aclrtStream stream) {
  MultinomialTiling t;
  t.rows = args.rows;
  t.n = args.n;
  t.samples = args.samples;
  t.replacement = args.replacement;
  t.rng = args.rng;
  if (t.rows == 0 || t.samples == 0) return ACL_SUCCESS;
  const int64_t blocks = MultinomialBlocks(t.rows);
  t.rowsPerBlock = (t.rows + blocks - 1) / blocks;
  const uint32_t blockDim = static_cast<uint32_t>((t.rows + t.rowsPerBlock - 1) / t.rowsPerBlock);
  if (args.probType == ACL_DOUBLE) {
    return LaunchKernel("multinomial_custom", blockDim, stream, multinomial_custom<double>, args.prob, args.out,
                        args.scratch, t);
  }
  if (args.probType != ACL_FLOAT) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'multinomial_custom': prob must be float or double");
  }
  return LaunchKernel("multinomial_custom", blockDim, stream, multinomial_custom<float>, args.prob, args.out,
                      args.scratch, t);
}

int64_t MultinomialBlocks(int64_t rows) {
  const int64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  return std::max<int64_t>(1, std::min<int64_t>(cores, rows));
}

aclError LaunchRandperm(aclDataType dtype, void* out, void* scratch, int64_t n, PhiloxArgs rng, aclrtStream stream) {
  if (n == 0) return ACL_SUCCESS;
  return DispatchKernelType(dtype, "randperm_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, bool>::value) {
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'randperm_custom' does not support ACL_BOOL");
    } else {
      return LaunchKernel("randperm_custom", 1, stream, randperm_custom<T>, out, scratch, n, rng);
    }
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
