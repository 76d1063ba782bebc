// Host adaptation layer: check the tensors against what the kernel can do,
// allocate the output, take the current npu stream and launch.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "ascendc_add.h"

#include <ATen/ops/empty.h>
#include <c10/util/Exception.h>

#include <cstdint>
#include <limits>

#include "add_custom.h"
#include "npu/core/NPUException.h"
#include "npu/core/NPUGuard.h"
#include "npu/core/NPUStream.h"

namespace ascendc_ops {
namespace {

AddDtype KernelDtype(const at::Tensor& x) {
  switch (x.scalar_type()) {
    case at::kHalf:
      return AddDtype::kFloat16;
    case at::kBFloat16:
      return AddDtype::kBFloat16;
    case at::kFloat:
      return AddDtype::kFloat32;
    default:
      TORCH_CHECK(false, "ascendc_add: x has dtype ", x.scalar_type(),
                  "; the add_custom kernel supports Half, BFloat16 and Float");
  }
}

void CheckInputs(const at::Tensor& x, const at::Tensor& y) {
  TORCH_CHECK(x.defined() && y.defined(), "ascendc_add: x and y must be defined tensors");
  TORCH_CHECK(x.device().type() == c10::DeviceType::PrivateUse1, "ascendc_add: x must be on npu, got ", x.device());
  TORCH_CHECK(y.device().type() == c10::DeviceType::PrivateUse1, "ascendc_add: y must be on npu, got ", y.device());
  TORCH_CHECK(x.device() == y.device(), "ascendc_add: x is on ", x.device(), " but y is on ", y.device());
  TORCH_CHECK(x.scalar_type() == y.scalar_type(), "ascendc_add: x has dtype ", x.scalar_type(), " but y has ",
              y.scalar_type(), "; the kernel reads both with one element type");
  TORCH_CHECK(x.sizes() == y.sizes(), "ascendc_add: x has shape ", x.sizes(), " but y has ", y.sizes(),
              "; the kernel adds element by element and does not broadcast");
  TORCH_CHECK(x.is_contiguous(), "ascendc_add: x is not contiguous; call .contiguous() first");
  TORCH_CHECK(y.is_contiguous(), "ascendc_add: y is not contiguous; call .contiguous() first");
  TORCH_CHECK(x.numel() <= std::numeric_limits<int32_t>::max(), "ascendc_add: x has ", x.numel(),
              " elements, more than the kernel's length parameter allows (", std::numeric_limits<int32_t>::max(), ")");
}

}  // namespace

at::Tensor ascendc_add(const at::Tensor& x, const at::Tensor& y) {
  CheckInputs(x, y);
  const AddDtype dtype = KernelDtype(x);
  c10_npu::OptionalNPUGuard device_guard(x.device());
  // Only allocates: the kernel must write every element.
  at::Tensor z = at::empty(x.sizes(), x.options());
  if (x.numel() == 0) {
    return z;
  }
  aclrtStream stream = c10_npu::getCurrentNPUStream().stream(false);
  NPU_CHECK_ACL(LaunchAddCustom(dtype, x.const_data_ptr(), y.const_data_ptr(), z.mutable_data_ptr(),
                                static_cast<uint64_t>(x.numel()), stream));
  return z;
}

}  // namespace ascendc_ops
