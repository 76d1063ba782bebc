// cast_custom: y = cast(x) between any two kernel types (dense). A data conversion, not an
// operator of the elementwise kernel (whose result is its inputs' type or bool): the kernel
// is instantiated per element size and converts each tile with the cast table's function
// for the pair (one indirect call per tile).
#include "kernels/cast_table.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/element_bytes.h"
#include "kernels/kernel_api.h"
#include "kernels/kernel_helpers.h"
#include "kernels/tiling.h"

namespace ascendc_sim {
namespace kernels {
namespace {

// The kernel's conversion parameter (a struct: the launch helper converts bare pointers to GM_ADDR).
struct CastParams {
  CastTileFn convert = nullptr;
};

// Each block moves its slice through the unified buffer tile by tile: copy-in over a
// double-buffered VECIN queue, the conversion into a VECOUT tile, copy-out.
template <typename S, typename D>
class CastKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ElementwiseTiling& tiling, const CastParams& params) {
    const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
    const uint64_t offset = tiling.BlockOffset(block);
    length_ = tiling.BlockElements(block);
    tileLength_ = tiling.tileLength;
    convert_ = params.convert;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(x) + offset, length_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ D*>(y) + offset, length_);
    pipe_.InitBuffer(inQueue_, BUFFER_NUM, tileLength_ * sizeof(S));
    pipe_.InitBuffer(outQueue_, BUFFER_NUM, tileLength_ * sizeof(D));
  }

  __aicore__ inline void Process() {
    const uint64_t tiles = (length_ + tileLength_ - 1) / tileLength_;
    for (uint64_t i = 0; i < tiles; ++i) {
      const uint64_t start = i * tileLength_;
      const uint32_t count = static_cast<uint32_t>(i + 1 < tiles ? tileLength_ : length_ - start);
      AscendC::LocalTensor<S> x = inQueue_.AllocTensor<S>();
      CopyTileIn(x, xGm_[start], count);
      inQueue_.EnQue(x);

      AscendC::LocalTensor<S> xIn = inQueue_.DeQue<S>();
      AscendC::LocalTensor<D> y = outQueue_.AllocTensor<D>();
      convert_(y.GetPhyAddr(), xIn.GetPhyAddr(), count);
      outQueue_.EnQue(y);
      inQueue_.FreeTensor(xIn);

      AscendC::LocalTensor<D> yOut = outQueue_.DeQue<D>();
      CopyTileOut(yGm_[start], yOut, count);
      outQueue_.FreeTensor(yOut);
    }
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue_;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue_;
  AscendC::GlobalTensor<S> xGm_;
  AscendC::GlobalTensor<D> yGm_;
  uint64_t length_ = 0;
  uint32_t tileLength_ = 0;
  CastTileFn convert_ = nullptr;
};

template <size_t SrcBytes, size_t DstBytes>
__global__ __aicore__ void cast_custom(GM_ADDR x, GM_ADDR y, ElementwiseTiling tiling, CastParams params) {
  CastKernel<typename ElementOfSize<SrcBytes>::type, typename ElementOfSize<DstBytes>::type> op;
  op.Init(x, y, tiling, params);
  op.Process();
}

}  // namespace

aclError LaunchCast(aclDataType srcType, const void* x, aclDataType dstType, void* y, uint64_t n, aclrtStream stream) {
  CastParams params;
  params.convert = LookupCastTile(srcType, dstType);
  if (params.convert == nullptr) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'cast_custom' cannot convert %s to %s",
                      DataTypeName(srcType), DataTypeName(dstType));
  }
  if (n == 0) return ACL_SUCCESS;
  const size_t srcBytes = DataTypeSize(srcType);
  const size_t dstBytes = DataTypeSize(dstType);
  const ElementwiseTiling tiling = ComputeElementwiseTiling(
      n, static_cast<uint32_t>(BUFFER_NUM * (srcBytes + dstBytes)),
      static_cast<uint32_t>(srcBytes > dstBytes ? srcBytes : dstBytes));
  return DispatchCopyElementBytes(srcBytes, "cast_custom", [&](auto srcSize) -> aclError {
    return DispatchCopyElementBytes(dstBytes, "cast_custom", [&](auto dstSize) -> aclError {
      return LaunchKernel("cast_custom", tiling.blockDim, stream,
                          cast_custom<decltype(srcSize)::value, decltype(dstSize)::value>, x, y, tiling, params);
    });
  });
}

ScalarValue StoredAs(aclDataType dtype, ScalarValue s) {
  if (!s.isFloating) return s;
  const float f = static_cast<float>(s.f);
  if (dtype == ACL_FLOAT16) return ScalarValue::Floating(HalfBitsToFloat(FloatToHalfBits(f)));
  if (dtype == ACL_BF16) return ScalarValue::Floating(Bf16BitsToFloat(FloatToBf16Bits(f)));
  return s;
}

}  // namespace kernels
}  // namespace ascendc_sim
