// complex_fill: y = re + i * im (dense complex64 or complex128). One unified-buffer
// tile is filled with the interleaved (re, im) pair once, then copied out over the
// block's slice; the data moves as 2 * n parts of the part type.
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/complex_api.h"
#include "kernels/kernel_helpers.h"
#include "kernels/tiling.h"

namespace ascendc_sim {
namespace kernels {
namespace {

template <typename P>
struct ComplexValue {
  P re = 0;
  P im = 0;
};

template <typename P>
class KernelComplexFill {
 public:
  __aicore__ inline void Init(GM_ADDR y, const ElementwiseTiling& tiling) {
    const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
    length_ = 2 * tiling.BlockElements(block);
    tileLength_ = 2 * tiling.tileLength;
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ P*>(y) + 2 * tiling.BlockOffset(block), length_);
    pipe_.InitBuffer(tileBuf_, tileLength_ * sizeof(P));
  }

  __aicore__ inline void Process(const ComplexValue<P>& value) {
    AscendC::LocalTensor<P> tile = tileBuf_.template Get<P>();
    P* parts = tile.GetPhyAddr();
    for (uint32_t j = 0; j < tileLength_; j += 2) {
      parts[j] = value.re;
      parts[j + 1] = value.im;
    }
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
  AscendC::GlobalTensor<P> yGm_;
  uint64_t length_ = 0;
  uint32_t tileLength_ = 0;
};

template <typename P>
__global__ __aicore__ void complex_fill(GM_ADDR y, ElementwiseTiling tiling, ComplexValue<P> value) {
  KernelComplexFill<P> op;
  op.Init(y, tiling);
  op.Process(value);
}

template <typename P>
aclError Launch(void* y, uint64_t n, double re, double im, aclrtStream stream) {
  const ElementwiseTiling tiling = ComputeElementwiseTiling(n, 2 * sizeof(P), 2 * sizeof(P));
  ComplexValue<P> value;
  value.re = static_cast<P>(re);
  value.im = static_cast<P>(im);
  return LaunchKernel("complex_fill", tiling.blockDim, stream, complex_fill<P>, y, tiling, value);
}

}  // namespace

aclError LaunchFillComplex(aclDataType dtype, void* y, uint64_t n, double re, double im, aclrtStream stream) {
  if (!IsComplexType(dtype)) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'complex_fill' does not support data type %s",
                      DataTypeName(dtype));
  }
  if (n == 0) return ACL_SUCCESS;
  return dtype == ACL_COMPLEX64 ? Launch<float>(y, n, re, im, stream) : Launch<double>(y, n, re, im, stream);
}

}  // namespace kernels
}  // namespace ascendc_sim
