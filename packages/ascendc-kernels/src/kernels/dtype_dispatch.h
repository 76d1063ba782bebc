// aclDataType -> C++ element type, for the host side of the kernels.
#ifndef ASCENDC_SIM_KERNELS_DTYPE_DISPATCH_H
#define ASCENDC_SIM_KERNELS_DTYPE_DISPATCH_H

#include <stdint.h>

#include "acl/acl_base.h"
#include "ascendc_sim/kernel/fp_types.h"
#include "common/dtype.h"
#include "common/error.h"

namespace ascendc_sim {
namespace kernels {

template <typename T>
struct TypeTag {
  using type = T;
};

// Calls f(TypeTag<T>{}) for the element type of `dtype`; an unsupported dtype
// is ACL_ERROR_UNSUPPORTED_DATA_TYPE with a message naming `kernel`.
template <typename F>
aclError DispatchKernelType(aclDataType dtype, const char* kernel, F&& f) {
  switch (dtype) {
    case ACL_FLOAT: return f(TypeTag<float>{});
    case ACL_FLOAT16: return f(TypeTag<half>{});
    case ACL_BF16: return f(TypeTag<bfloat16_t>{});
    case ACL_DOUBLE: return f(TypeTag<double>{});
    case ACL_INT8: return f(TypeTag<int8_t>{});
    case ACL_UINT8: return f(TypeTag<uint8_t>{});
    case ACL_INT16: return f(TypeTag<int16_t>{});
    case ACL_INT32: return f(TypeTag<int32_t>{});
    case ACL_INT64: return f(TypeTag<int64_t>{});
    case ACL_BOOL: return f(TypeTag<bool>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel '%s' does not support data type %s", kernel,
                        DataTypeName(dtype));
  }
}

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_DTYPE_DISPATCH_H
