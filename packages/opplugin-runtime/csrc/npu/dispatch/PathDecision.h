// The dual-path choice of generated op_plugin::<name> bodies, step by step
// (contracts.md section 3): each predicate is evaluated exactly as before and
// reported to the thread's PathObserver (torch.npu.explain, expect_paths) when
// one is installed; off, each costs one relaxed atomic load.
//
//   if ((NpuDecideForceAclnn("add.Tensor") || NpuDecideJitDisabled("add.Tensor")) &&
//       NpuDecideBaseFormat("add.Tensor", "self", self) && ...) { ... }
//   if (NpuDecideAclnnOnly("add.Tensor")) TORCH_CHECK(false, ...);
#pragma once

#include <string>

#include <ATen/core/Tensor.h>

#include "npu/core/NpuVariables.h"
#include "npu/dispatch/EnvVariables.h"
#include "npu/dispatch/ForceAclnn.h"
#include "npu/format/FormatHelper.h"
#include "npu/dispatch/PathLedger.h"

namespace at_npu::native {

inline bool NpuDecideForceAclnn(const char* op) {
  return NpuDecide(op, "force_aclnn", "", ForceAclnn::GetInstance().IsForceAclnnOp(op));
}

inline bool NpuDecideJitDisabled(const char* op) {
  return NpuDecide(op, "jit_compile_disabled", "", env::CheckJitDisable());
}

inline bool NpuDecideAclnnOnly(const char* op) {
  return NpuDecide(op, "aclnn_only_device", "", c10_npu::IsAclnnOnly());
}

namespace path_decision_detail {
inline std::string FormatOf(const at::Tensor& tensor) {
  return tensor.defined() ? FormatHelper::GetFormatName(FormatHelper::GetFormat(tensor)) : "undefined";
}
inline std::string FormatOf(const c10::optional<at::Tensor>& tensor) {
  return tensor.has_value() ? FormatOf(*tensor) : "None";
}
template <typename T>
std::string FormatOf(const T&) {
  return "list";
}
}  // namespace path_decision_detail

template <typename T>
bool NpuDecideBaseFormat(const char* op, const char* arg, const T& value) {
  const bool base = FormatHelper::IsOpInputBaseFormat(value);
  if (__builtin_expect(PathObserved(), 0)) {
    detail::NotifyStep(op, "base_format", arg, base, path_decision_detail::FormatOf(value));
  }
  return base;
}

}  // namespace at_npu::native
