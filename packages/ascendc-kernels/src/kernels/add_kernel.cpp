// add_custom: y = x1 + x2 (dense, same dtype; bool: logical or).
#include "kernels/elementwise_pipeline.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct AddCompute {
  template <typename T>
  __aicore__ inline void Compute(const AscendC::LocalTensor<T>& y, const AscendC::LocalTensor<T>& x1,
                                 const AscendC::LocalTensor<T>& x2, uint32_t count) const {
    AscendC::Add(y, x1, x2, count);
  }
};

template <typename T>
__global__ __aicore__ void add_custom(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, ElementwiseTiling tiling) {
  BinaryPipeline<T, AddCompute> op;
  op.Init(x1, x2, y, tiling, AddCompute{});
  op.Process();
}

}  // namespace

aclError LaunchAdd(aclDataType dtype, const void* x1, const void* x2, void* y, uint64_t n, aclrtStream stream) {
  return DispatchKernelType(dtype, "add_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if (n == 0) return ACL_SUCCESS;
    const ElementwiseTiling tiling = ComputeElementwiseTiling(n, kBinaryUbBytesPerElement<T>, sizeof(T));
    return LaunchKernel("add_custom", tiling.blockDim, stream, add_custom<T>, x1, x2, y, tiling);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
