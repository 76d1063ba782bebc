// muls_custom: y = x * value (dense; the scalar in the compute type).
#include "kernels/elementwise_pipeline.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {
namespace {

template <typename T>
struct MulsCompute {
  typename AscendC::detail::Arith<T>::Compute value{};

  __aicore__ inline void Compute(const AscendC::LocalTensor<T>& y, const AscendC::LocalTensor<T>& x,
                                 uint32_t count) const {
    AscendC::Muls(y, x, value, count);
  }
};

template <typename T>
__global__ __aicore__ void muls_custom(GM_ADDR x, GM_ADDR y, ElementwiseTiling tiling, MulsCompute<T> compute) {
  UnaryPipeline<T, T, MulsCompute<T>> op;
  op.Init(x, y, tiling, compute);
  op.Process();
}

}  // namespace

aclError LaunchMuls(aclDataType dtype, const void* x, void* y, uint64_t n, ScalarValue value, aclrtStream stream) {
  return DispatchKernelType(dtype, "muls_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if (n == 0) return ACL_SUCCESS;
    const ElementwiseTiling tiling = ComputeElementwiseTiling(n, kUnaryUbBytesPerElement<T, T>, sizeof(T));
    MulsCompute<T> compute;
    compute.value = ScalarAs<T>(value);
    return LaunchKernel("muls_custom", tiling.blockDim, stream, muls_custom<T>, x, y, tiling, compute);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
