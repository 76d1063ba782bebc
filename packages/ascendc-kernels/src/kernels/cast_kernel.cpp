// cast_custom: y = cast(x) between any two kernel types (dense), with PyTorch's
// conversion rules (to bool: != 0; floating to integral: truncation). Also the
// tile conversion table of the view-copy kernel.
#include "kernels/cast_table.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/elementwise_pipeline.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct CastCompute {
  template <typename D, typename S>
  __aicore__ inline void Compute(const AscendC::LocalTensor<D>& y, const AscendC::LocalTensor<S>& x,
                                 uint32_t count) const {
    AscendC::Cast(y, x, AscendC::RoundMode::CAST_NONE, count);
  }
};

template <typename S, typename D>
__global__ __aicore__ void cast_custom(GM_ADDR x, GM_ADDR y, ElementwiseTiling tiling) {
  UnaryPipeline<S, D, CastCompute> op;
  op.Init(x, y, tiling, CastCompute{});
  op.Process();
}

template <typename D, typename S>
void CastTile(void* dst, const void* src, uint32_t count) {
  AscendC::LocalTensor<D> d(static_cast<D*>(dst), count);
  AscendC::LocalTensor<S> s(static_cast<S*>(const_cast<void*>(src)), count);
  AscendC::Cast(d, s, AscendC::RoundMode::CAST_NONE, count);
}

}  // namespace

aclError LaunchCast(aclDataType srcType, const void* x, aclDataType dstType, void* y, uint64_t n, aclrtStream stream) {
  return DispatchKernelType(srcType, "cast_custom", [&](auto srcTag) -> aclError {
    return DispatchKernelType(dstType, "cast_custom", [&](auto dstTag) -> aclError {
      using S = typename decltype(srcTag)::type;
      using D = typename decltype(dstTag)::type;
      if (n == 0) return ACL_SUCCESS;
      const ElementwiseTiling tiling =
          ComputeElementwiseTiling(n, kUnaryUbBytesPerElement<S, D>, sizeof(S) > sizeof(D) ? sizeof(S) : sizeof(D));
      return LaunchKernel("cast_custom", tiling.blockDim, stream, cast_custom<S, D>, x, y, tiling);
    });
  });
}

CastTileFn LookupCastTile(aclDataType src, aclDataType dst) {
  CastTileFn fn = nullptr;
  DispatchKernelType(src, "cast_tile", [&](auto srcTag) -> aclError {
    return DispatchKernelType(dst, "cast_tile", [&](auto dstTag) -> aclError {
      fn = &CastTile<typename decltype(dstTag)::type, typename decltype(srcTag)::type>;
      return ACL_SUCCESS;
    });
  });
  return fn;
}

}  // namespace kernels
}  // namespace ascendc_sim
