// fill_custom: y = value (dense). The value is broadcast into one unified-buffer
// tile once (Duplicate), which is then copied out over the block's slice.
#include "kernels/kernel_helpers.h"
#include "kernels/tiling.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {
namespace {

template <typename T>
class KernelFill {
 public:
  __aicore__ inline void Init(GM_ADDR y, const ElementwiseTiling& tiling) {
    const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
    length_ = tiling.BlockElements(block);
    tileLength_ = tiling.tileLength;
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + tiling.BlockOffset(block), length_);
    pipe_.InitBuffer(tileBuf_, tileLength_ * sizeof(T));
  }

  template <typename C>
  __aicore__ inline void Process(C value) {
    AscendC::LocalTensor<T> tile = tileBuf_.template Get<T>();
    AscendC::Duplicate(tile, value, tileLength_);
    const uint64_t tiles = (length_ + tileLength_ - 1) / tileLength_;
    for (uint64_t i = 0; i < tiles; ++i) {
      const uint64_t start = i * tileLength_;
      const uint32_t count = static_cast<uint32_t>(i + 1 < tiles ? tileLength_ : length_ - start);
      CopyTileOut(yGm_[start], tile, count);
    }
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tileBuf_;
  AscendC::GlobalTensor<T> yGm_;
  uint64_t length_ = 0;
  uint32_t tileLength_ = 0;
};

template <typename T>
__global__ __aicore__ void fill_custom(GM_ADDR y, ElementwiseTiling tiling,
                                       typename AscendC::detail::Arith<T>::Compute value) {
  KernelFill<T> op;
  op.Init(y, tiling);
  op.Process(value);
}

}  // namespace

aclError LaunchFill(aclDataType dtype, void* y, uint64_t n, ScalarValue value, aclrtStream stream) {
  return DispatchKernelType(dtype, "fill_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if (n == 0) return ACL_SUCCESS;
    const ElementwiseTiling tiling = ComputeElementwiseTiling(n, sizeof(T), sizeof(T));
    return LaunchKernel("fill_custom", tiling.blockDim, stream, fill_custom<T>, y, tiling, ScalarAs<T>(value));
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
