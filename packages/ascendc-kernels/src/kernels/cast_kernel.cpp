// cast_custom: y = cast(x) between any two kernel types (dense). The pipeline
// is instantiated per element size; the conversion of each tile comes from the
// cast table (one indirect call per tile).
#include "kernels/cast_table.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/element_bytes.h"
#include "kernels/elementwise_pipeline.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct CastCompute {
  CastTileFn convert = nullptr;

  template <typename D, typename S>
  __aicore__ inline void Compute(const AscendC::LocalTensor<D>& y, const AscendC::LocalTensor<S>& x,
                                 uint32_t count) const {
    convert(y.GetPhyAddr(), x.GetPhyAddr(), count);
  }
};

template <size_t SrcBytes, size_t DstBytes>
__global__ __aicore__ void cast_custom(GM_ADDR x, GM_ADDR y, ElementwiseTiling tiling, CastCompute compute) {
  using S = typename ElementOfSize<SrcBytes>::type;
  using D = typename ElementOfSize<DstBytes>::type;
  UnaryPipeline<S, D, CastCompute> op;
  op.Init(x, y, tiling, compute);
  op.Process();
}

}  // namespace

aclError LaunchCast(aclDataType srcType, const void* x, aclDataType dstType, void* y, uint64_t n, aclrtStream stream) {
  CastCompute compute;
  compute.convert = LookupCastTile(srcType, dstType);
  if (compute.convert == nullptr) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'cast_custom' cannot convert %s to %s",
                      DataTypeName(srcType), DataTypeName(dstType));
  }
  if (n == 0) return ACL_SUCCESS;
  const size_t srcBytes = DataTypeSize(srcType);
  const size_t dstBytes = DataTypeSize(dstType);
  const ElementwiseTiling tiling = ComputeElementwiseTiling(
      n, static_cast<uint32_t>(BUFFER_NUM * (srcBytes + dstBytes)),
      static_cast<uint32_t>(srcBytes > dstBytes ? srcBytes : dstBytes));
  return DispatchElementBytes(srcBytes, "cast_custom", [&](auto srcSize) -> aclError {
    return DispatchElementBytes(dstBytes, "cast_custom", [&](auto dstSize) -> aclError {
      return LaunchKernel("cast_custom", tiling.blockDim, stream,
                          cast_custom<decltype(srcSize)::value, decltype(dstSize)::value>, x, y, tiling, compute);
    });
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
