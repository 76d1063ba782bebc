// search_sorted_custom and histc_custom: placing values among sorted boundaries.
//
// search_sorted_custom: out[r, j] = the insertion position of values[r, j] in the
// sorted row r of `sorted` (or the one shared row), found by binary search as
// PyTorch's CPU kernel does (lower bound: the first boundary not below the value;
// upper bound with `right`: the first one above it; NaN sorts last), reading the row
// through `sorter` when given. Blocks take ranges of out's elements.
// histc_custom: one block counts the elements of x inside [min, max] into `bins`
// equal bins whose edges are the linspace of (min, max, bins + 1) in x's type, as
// PyTorch's CPU histogram does (a linear estimate of the bin, corrected against the
// edges; max falls in the last bin; NaN and values outside are skipped).
#include <algorithm>
#include <type_traits>

#include "ascendc_sim/kernel/trap.h"
#include "ascendc_sim/launch.h"
#include "common/error.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_helpers.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct SearchTiling {
  SearchSortedArgs a;
  int64_t total = 0, perBlock = 0;
};

template <typename T>
__global__ __aicore__ void search_sorted_custom(SearchTiling t) {
  using A = AscendC::detail::Arith<T>;
  using S = typename A::Storage;
  const SearchSortedArgs& a = t.a;
  const S* sorted = reinterpret_cast<const S*>(a.sorted);
  const S* values = reinterpret_cast<const S*>(a.values);
  const int64_t* sorter = reinterpret_cast<const int64_t*>(a.sorter);
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.perBlock;
  const int64_t last = std::min(t.total, first + t.perBlock);
  for (int64_t k = first; k < last; ++k) {
    const int64_t row = a.sharedRow ? 0 : k / a.perRow;
    const int64_t base = row * a.n;
    const auto v = A::Load(values[k]);
    int64_t start = 0, end = a.n;
    while (start < end) {
      const int64_t mid = start + ((end - start) >> 1);
      const int64_t at = sorter != nullptr ? sorter[base + mid] : mid;
      if (sorter != nullptr && (at < 0 || at >= a.n)) {
        KernelFail("searchsorted: sorter index %lld is out of range for a row of %lld", static_cast<long long>(at),
                   static_cast<long long>(a.n));
      }
      const auto m = A::Load(sorted[base + at]);
      const bool before = a.right ? !(m > v) : !(m >= v);
      if (before) {
        start = mid + 1;
      } else {
        end = mid;
      }
    }
    if (a.out32) {
      reinterpret_cast<int32_t*>(a.out)[k] = static_cast<int32_t>(start);
    } else {
      reinterpret_cast<int64_t*>(a.out)[k] = start;
    }
  }
}

struct HistcTiling {
  int64_t n = 0, bins = 0;
  double min = 0, max = 0;
};

template <typename T>
__global__ __aicore__ void histc_custom(GM_ADDR x, GM_ADDR hist, GM_ADDR edges, HistcTiling t) {
  using A = AscendC::detail::Arith<T>;
  using S = typename A::Storage;
  using C = typename A::Compute;
  const S* in = reinterpret_cast<const S*>(x);
  S* h = reinterpret_cast<S*>(hist);
  C* e = reinterpret_cast<C*>(edges);
  // The edges: linspace(min, max, bins + 1) in T, both ends exact.
  const int64_t count = t.bins + 1, halfway = count / 2;
  const C lo = static_cast<C>(A::Load(A::Store(static_cast<C>(t.min))));
  const C hi = static_cast<C>(A::Load(A::Store(static_cast<C>(t.max))));
  const C step = static_cast<C>(A::Load(A::Store(static_cast<C>((hi - lo) / static_cast<C>(count - 1)))));
  for (int64_t i = 0; i < count; ++i) {
    const C v = i < halfway ? lo + step * static_cast<C>(i) : hi - step * static_cast<C>(count - 1 - i);
    e[i] = A::Load(A::Store(v));
  }
  for (int64_t b = 0; b < t.bins; ++b) h[b] = A::Store(static_cast<C>(0));
  const C left = e[0], right = e[count - 1];
  for (int64_t i = 0; i < t.n; ++i) {
    const C v = A::Load(in[i]);
    if (!(v >= left && v <= right)) continue;
    int64_t pos = static_cast<int64_t>((v - left) * static_cast<C>(count - 1) / (right - left));
    const int64_t lo_pos = std::max<int64_t>(0, pos - 1);
    const int64_t hi_pos = std::min<int64_t>(pos + 2, count);
    pos = std::upper_bound(e + lo_pos, e + hi_pos, v) - e - 1;
    if (pos == count - 1) pos -= 1;
    h[pos] = A::Store(static_cast<C>(A::Load(h[pos]) + static_cast<C>(1)));
  }
}

}  // namespace

aclError LaunchSearchSorted(const SearchSortedArgs& args, aclrtStream stream) {
  SearchTiling t;
  t.a = args;
  t.total = args.sharedRow ? args.perRow : args.rows * args.perRow;
  if (t.total == 0) return ACL_SUCCESS;
  const int64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>(cores, t.total / 16384));
  t.perBlock = (t.total + blocks - 1) / blocks;
  const uint32_t blockDim = static_cast<uint32_t>((t.total + t.perBlock - 1) / t.perBlock);
  return DispatchKernelType(args.dtype, "search_sorted_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("search_sorted_custom", blockDim, stream, search_sorted_custom<T>, t);
  });
}

aclError LaunchHistc(aclDataType dtype, const void* x, int64_t n, void* hist, void* edges, int64_t bins, double min,
                     double max, aclrtStream stream) {
  HistcTiling t;
  t.n = n;
  t.bins = bins;
  t.min = min;
  t.max = max;
  return DispatchKernelType(dtype, "histc_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if constexpr (!(std::is_same<T, float>::value || std::is_same<T, double>::value || std::is_same<T, half>::value ||
                    std::is_same<T, bfloat16_t>::value)) {
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'histc_custom' takes floating types only");
    } else {
      return LaunchKernel("histc_custom", 1, stream, histc_custom<T>, x, hist, edges, t);
    }
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
