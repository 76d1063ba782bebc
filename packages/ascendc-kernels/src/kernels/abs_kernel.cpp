// abs_custom: y = |x| (dense; every kernel type but bool).
#include "kernels/elementwise_pipeline.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct AbsCompute {
  template <typename T>
  __aicore__ inline void Compute(const AscendC::LocalTensor<T>& y, const AscendC::LocalTensor<T>& x,
                                 uint32_t count) const {
    AscendC::Abs(y, x, count);
  }
};

template <typename T>
__global__ __aicore__ void abs_custom(GM_ADDR x, GM_ADDR y, ElementwiseTiling tiling) {
  UnaryPipeline<T, T, AbsCompute> op;
  op.Init(x, y, tiling, AbsCompute{});
  op.Process();
}

}  // namespace

aclError LaunchAbs(aclDataType dtype, const void* x, void* y, uint64_t n, aclrtStream stream) {
  return DispatchKernelType(dtype, "abs_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, bool>::value) {
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'abs_custom' does not support data type ACL_BOOL");
    } else {
      if (n == 0) return ACL_SUCCESS;
      const ElementwiseTiling tiling = ComputeElementwiseTiling(n, kUnaryUbBytesPerElement<T, T>, sizeof(T));
      return LaunchKernel("abs_custom", tiling.blockDim, stream, abs_custom<T>, x, y, tiling);
    }
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
