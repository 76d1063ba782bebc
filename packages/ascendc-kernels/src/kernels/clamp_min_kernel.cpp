// clamp_min_custom: y = max(x, min) (dense; every kernel type but bool). NaN in
// x stays NaN and a NaN min gives NaN, as in torch.clamp_min; relu is clamp_min at 0.
#include <cmath>
#include <type_traits>

#include "kernels/elementwise_pipeline.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {
namespace {

template <typename T>
struct ClampMinCompute {
  typename AscendC::detail::Arith<T>::Compute min{};

  __aicore__ inline void Compute(const AscendC::LocalTensor<T>& y, const AscendC::LocalTensor<T>& x,
                                 uint32_t count) const {
    if constexpr (!std::is_integral<decltype(min)>::value) {
      if (std::isnan(static_cast<double>(min))) {  // a NaN bound makes every element NaN, as torch.clamp_min
        AscendC::Duplicate(y, min, count);
        return;
      }
    }
    AscendC::Maxs(y, x, min, count);
  }
};

template <typename T>
__global__ __aicore__ void clamp_min_custom(GM_ADDR x, GM_ADDR y, ElementwiseTiling tiling,
                                            ClampMinCompute<T> compute) {
  UnaryPipeline<T, T, ClampMinCompute<T>> op;
  op.Init(x, y, tiling, compute);
  op.Process();
}

}  // namespace

aclError LaunchClampMin(aclDataType dtype, const void* x, void* y, uint64_t n, ScalarValue min,
                        aclrtStream stream) {
  return DispatchKernelType(dtype, "clamp_min_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, bool>::value) {
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE,
                        "kernel 'clamp_min_custom' does not support data type ACL_BOOL");
    } else {
      if (n == 0) return ACL_SUCCESS;
      const ElementwiseTiling tiling = ComputeElementwiseTiling(n, kUnaryUbBytesPerElement<T, T>, sizeof(T));
      ClampMinCompute<T> compute;
      compute.min = ScalarAs<T>(min);
      return LaunchKernel("clamp_min_custom", tiling.blockDim, stream, clamp_min_custom<T>, x, y, tiling, compute);
    }
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
