// unique_custom: the distinct values of x (n elements) in ascending order (NaN last,
// each NaN its own value, as PyTorch's CPU unique), or, for unique_consecutive, the
// first value of each run of equal neighbours in x's order. One block: the element
// indices are stably sorted by value (consecutive: left in order), then each group of
// equal values gives one y value, its count, and the inverse index of its elements.
// The number of groups is stored in total[0].
#include <math.h>

#include <algorithm>
#include <numeric>
#include <type_traits>

#include "ascendc_sim/launch.h"
#include "common/error.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_helpers.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct UniqueTiling {
  int64_t n = 0;
  bool consecutive = false;
};

template <typename C>
__aicore__ inline bool IsNanValue(C v) {
  if constexpr (std::is_floating_point<C>::value) {
    return isnan(v);
  } else {
    return false;
  }
}

template <typename T>
__global__ __aicore__ void unique_custom(GM_ADDR x, GM_ADDR y, GM_ADDR inverse, GM_ADDR counts, GM_ADDR order,
                                        GM_ADDR total, UniqueTiling t) {
  using A = AscendC::detail::Arith<T>;
  using S = typename A::Storage;
  const S* in = reinterpret_cast<const S*>(x);
  S* out = reinterpret_cast<S*>(y);
  int64_t* inv = reinterpret_cast<int64_t*>(inverse);
  int64_t* cnt = reinterpret_cast<int64_t*>(counts);
  int64_t* idx = reinterpret_cast<int64_t*>(order);
  std::iota(idx, idx + t.n, int64_t{0});
  if (!t.consecutive) {
    std::stable_sort(idx, idx + t.n, [in](int64_t a, int64_t b) {
      const auto va = A::Load(in[a]), vb = A::Load(in[b]);
      if (IsNanValue(va)) return false;
      return IsNanValue(vb) || va < vb;
    });
  }
  int64_t groups = 0;
  for (int64_t k = 0; k < t.n; ++k) {
    const auto v = A::Load(in[idx[k]]);
    const bool fresh = k == 0 || !(A::Load(in[idx[k - 1]]) == v);  // NaN never equals
    if (fresh) {
      out[groups] = in[idx[k]];
      if (cnt != nullptr) cnt[groups] = 0;
      ++groups;
    }
    if (cnt != nullptr) ++cnt[groups - 1];
    if (inv != nullptr) inv[idx[k]] = groups - 1;
  }
  reinterpret_cast<int64_t*>(total)[0] = groups;
}

}  // namespace

aclError LaunchUnique(const UniqueArgs& args, aclrtStream stream) {
  UniqueTiling t;
  t.n = args.n;
  t.consecutive = args.consecutive;
  void* x = const_cast<void*>(args.x);
  return DispatchKernelType(args.dtype, "unique_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("unique_custom", 1, stream, unique_custom<T>, x, args.y, args.inverse, args.counts,
                        args.order, args.total, t);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
