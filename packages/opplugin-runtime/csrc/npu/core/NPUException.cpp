#include "npu/core/NPUException.h"

namespace c10_npu {

const char* AclRecentErrorMessage() {
  const char* msg = aclGetRecentErrMsg();
  return (msg != nullptr && msg[0] != '\0') ? msg : "(no message from the device)";
}

}  // namespace c10_npu
