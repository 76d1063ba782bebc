// Error checking for ACL runtime calls.
#pragma once

#include <c10/util/Exception.h>

#include "acl/acl_base.h"

namespace c10_npu {

// aclGetRecentErrMsg() of the calling thread, never null.
const char* AclRecentErrorMessage();

}  // namespace c10_npu

// Raises (TORCH_CHECK) when an ACL call does not return ACL_SUCCESS; the message
// names the call, the error code and the device's most recent error message.
#define NPU_CHECK_ACL(expr)                                                         \
  do {                                                                              \
    const ::aclError npu_check_acl_err_ = (expr);                                   \
    TORCH_CHECK(npu_check_acl_err_ == ACL_SUCCESS, #expr, " failed with error code ", \
                npu_check_acl_err_, ": ", ::c10_npu::AclRecentErrorMessage());      \
  } while (false)

// For destructors and deleters, which must not throw: reports and continues.
#define NPU_CHECK_ACL_WARN(expr)                                                    \
  do {                                                                              \
    const ::aclError npu_check_acl_err_ = (expr);                                   \
    if (npu_check_acl_err_ != ACL_SUCCESS) {                                        \
      TORCH_WARN(#expr, " failed with error code ", npu_check_acl_err_, ": ",       \
                 ::c10_npu::AclRecentErrorMessage());                               \
    }                                                                               \
  } while (false)
