// axpy_custom: y = x1 + alpha * x2 (dense, same dtype), rounded once: half and
// bfloat16 compute in float with a float alpha, as PyTorch's add(alpha=) does.
#include "kernels/elementwise_pipeline.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {
namespace {

template <typename T>
struct AxpyCompute {
  typename AscendC::detail::Arith<T>::Compute alpha{};

  __aicore__ inline void Compute(const AscendC::LocalTensor<T>& y, const AscendC::LocalTensor<T>& x1,
                                 const AscendC::LocalTensor<T>& x2, uint32_t count) const {
    AscendC::DataCopy(y, x1, AlignedCount(count));  // y = x1
    AscendC::Axpy(y, x2, alpha, count);            // y += alpha * x2
  }

  // UB -> UB copies move whole 32-byte blocks; the tile buffers are block-sized.
  static uint32_t AlignedCount(uint32_t count) {
    constexpr uint32_t perBlock = AscendC::ONE_BLK_SIZE / sizeof(T);
    return (count + perBlock - 1) / perBlock * perBlock;
  }
};

template <typename T>
__global__ __aicore__ void axpy_custom(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, ElementwiseTiling tiling,
                                       AxpyCompute<T> compute) {
  BinaryPipeline<T, AxpyCompute<T>> op;
  op.Init(x1, x2, y, tiling, compute);
  op.Process();
}

}  // namespace

aclError LaunchAxpy(aclDataType dtype, const void* x1, const void* x2, void* y, uint64_t n, ScalarValue alpha,
                    aclrtStream stream) {
  return DispatchKernelType(dtype, "axpy_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if (n == 0) return ACL_SUCCESS;
    const ElementwiseTiling tiling = ComputeElementwiseTiling(n, kBinaryUbBytesPerElement<T>, sizeof(T));
    AxpyCompute<T> compute;
    compute.alpha = ScalarAs<T>(alpha);
    return LaunchKernel("axpy_custom", tiling.blockDim, stream, axpy_custom<T>, x1, x2, y, tiling, compute);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
