// Device-model switches read from the environment.
#pragma once

namespace c10_npu {

// True on an "aclnn-only" device model (NPU_ACLNN_ONLY=1): the acl_op path does
// not exist there, so choosing it is an error. Read once per process.
bool IsAclnnOnly();

}  // namespace c10_npu
