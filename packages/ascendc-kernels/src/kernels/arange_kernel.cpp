// arange_custom: y[i] = start + i * step. Each block fills its range of y tile by
// tile in the unified buffer (values computed in double for floating types, in
// int64 for integral ones, then converted) and writes each tile with DataCopy.
#include <type_traits>

#include "kernels/dtype_dispatch.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_helpers.h"
#include "kernels/tiling.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct ArangeTiling {
  ElementwiseTiling tiling;
  double startF = 0, stepF = 0;
  int64_t startI = 0, stepI = 0;
};

template <typename T>
__global__ __aicore__ void arange_custom(GM_ADDR y, ArangeTiling t) {
  const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
  const uint64_t start = t.tiling.BlockOffset(block);
  const uint64_t length = t.tiling.BlockElements(block);
  AscendC::GlobalTensor<T> yGm;
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t.tiling.totalLength);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> queue;
  pipe.InitBuffer(queue, BUFFER_NUM, t.tiling.tileLength * sizeof(T));
  const uint32_t tileLength = t.tiling.tileLength;
  const uint64_t tiles = (length + tileLength - 1) / tileLength;
  for (uint64_t k = 0; k < tiles; ++k) {
    const uint64_t first = start + k * tileLength;
    const uint32_t n = static_cast<uint32_t>(k + 1 < tiles ? tileLength : length - k * tileLength);
    AscendC::LocalTensor<T> tile = queue.AllocTensor<T>();
    for (uint32_t j = 0; j < n; ++j) {
      const uint64_t i = first + j;
      if constexpr (std::is_integral<T>::value) {
        tile.SetValue(j, static_cast<T>(t.startI + static_cast<int64_t>(i) * t.stepI));
      } else {
        tile.SetValue(j, static_cast<T>(t.startF + static_cast<double>(i) * t.stepF));
      }
    }
    queue.EnQue(tile);
    AscendC::LocalTensor<T> out = queue.DeQue<T>();
    CopyTileOut(yGm[first], out, n);
    queue.FreeTensor(out);
  }
}

}  // namespace

aclError LaunchArange(aclDataType dtype, void* y, uint64_t n, double startF, double stepF, int64_t startI,
                      int64_t stepI, aclrtStream stream) {
  return DispatchKernelType(dtype, "arange_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, bool>::value) {
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'arange_custom' does not support data type ACL_BOOL");
    } else {
      if (n == 0) return ACL_SUCCESS;
      ArangeTiling t;
      t.tiling = ComputeElementwiseTiling(n, static_cast<uint32_t>(BUFFER_NUM * sizeof(T)), sizeof(T));
      t.startF = startF;
      t.stepF = stepF;
      t.startI = startI;
      t.stepI = stepI;
      return LaunchKernel("arange_custom", t.tiling.blockDim, stream, arange_custom<T>, y, t);
    }
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
