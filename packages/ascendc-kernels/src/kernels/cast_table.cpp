// The tile conversion table: AscendC::Cast between every pair of kernel types,
// with PyTorch's conversion rules (to bool: != 0; floating to integral:
// truncation; to float16/bfloat16: round to nearest even).
#include "kernels/cast_table.h"

#include "kernel_operator.h"
#include "kernels/dtype_dispatch.h"

namespace ascendc_sim {
namespace kernels {
namespace {

template <typename D, typename S>
void CastTile(void* dst, const void* src, uint32_t count) {
  AscendC::LocalTensor<D> d(static_cast<D*>(dst), count);
  AscendC::LocalTensor<S> s(static_cast<S*>(const_cast<void*>(src)), count);
  AscendC::Cast(d, s, AscendC::RoundMode::CAST_NONE, count);
}

}  // namespace

CastTileFn LookupCastTile(aclDataType src, aclDataType dst) {
  CastTileFn fn = nullptr;
  if (!IsKernelType(src) || !IsKernelType(dst)) return nullptr;
  DispatchKernelType(src, "cast", [&](auto srcTag) -> aclError {
    return DispatchKernelType(dst, "cast", [&](auto dstTag) -> aclError {
      fn = &CastTile<typename decltype(dstTag)::type, typename decltype(srcTag)::type>;
      return ACL_SUCCESS;
    });
  });
  return fn;
}

}  // namespace kernels
}  // namespace ascendc_sim
