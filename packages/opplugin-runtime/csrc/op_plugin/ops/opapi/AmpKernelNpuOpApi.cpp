// GradScaler's steps on the op_api path: the non-finite check with unscaling of a list of
// gradients (aclnnForeachNonFiniteCheckAndUnscale, one launch for the whole list) and the
// loss-scale update (aclnnAmpUpdateScale). Both stay on the device: found_inf, the scale and the
// growth tracker are read and written by the kernels, never by the host. The argument checks are
// ATen's (its CUDA kernels'), with the op named.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>

#include "npu/core/NPUGuard.h"
#include "npu/op_api/op_api_common.h"
#include "op_plugin/ops/_amp_foreach_non_finite_check_and_unscale.h"
#include "op_plugin/ops/_amp_update_scale.h"

namespace op_api {
namespace {

bool on_npu(const at::Tensor& t) {
  return t.device().type() == c10::DeviceType::PrivateUse1;
}

void check_one_float_element(const char* op, const at::Tensor& t, const char* name) {
  TORCH_CHECK(on_npu(t), op, ": ", name, " must be an npu tensor, got one on ", t.device());
  TORCH_CHECK(t.numel() == 1, op, ": ", name, " must be a 1-element tensor, got ", t.numel(), " elements");
  TORCH_CHECK(t.scalar_type() == at::ScalarType::Float, op, ": ", name, " must be a float tensor, got ",
              t.scalar_type());
}

}  // namespace

void _amp_foreach_non_finite_check_and_unscale_(at::TensorList self, at::Tensor& found_inf,
                                                const at::Tensor& inv_scale) {
  const char* op = "_amp_foreach_non_finite_check_and_unscale_";
  check_one_float_element(op, inv_scale, "inv_scale");
  check_one_float_element(op, found_inf, "found_inf");
  if (self.empty()) {
    return;
  }
  const c10::Device device = self[0].device();
  for (size_t i = 0; i < self.size(); ++i) {
    const at::Tensor& t = self[i];
    TORCH_CHECK(on_npu(t), op, ": scaled_grads[", i, "] is not an npu tensor (it is on ", t.device(), ")");
    TORCH_CHECK(t.device() == device, op, ": scaled_grads must be on the same device, scaled_grads[", i, "] is on ",
                t.device(), ", scaled_grads[0] on ", device);
    TORCH_CHECK(t.layout() == at::kStrided, op, ": scaled_grads[", i, "] is not a strided tensor");
    const at::ScalarType dtype = t.scalar_type();
    TORCH_CHECK(dtype == at::ScalarType::Float || dtype == at::ScalarType::Half || dtype == at::ScalarType::BFloat16 ||
                    dtype == at::ScalarType::Double,
                op, ": scaled_grads[", i, "] has dtype ", t.scalar_type(),
                "; float, float16, bfloat16 and double gradients can be unscaled");
  }
  TORCH_CHECK(found_inf.device() == device && inv_scale.device() == device, op,
              ": found_inf and inv_scale must be on the gradients' device ", device, ", got ", found_inf.device(),
              " and ", inv_scale.device());
  c10_npu::NPUGuard guard(device);
  EXEC_NPU_CMD(aclnnForeachNonFiniteCheckAndUnscale, self, found_inf, inv_scale);
}

at::Tensor& _amp_update_scale_(at::Tensor& self, at::Tensor& growth_tracker, const at::Tensor& found_inf,
                               double scale_growth_factor, double scale_backoff_factor, int64_t growth_interval) {
  const char* op = "_amp_update_scale_";
  check_one_float_element(op, self, "current_scale");
  check_one_float_element(op, found_inf, "found_inf");
  TORCH_CHECK(on_npu(growth_tracker), op, ": growth_tracker must be an npu tensor, got one on ",
              growth_tracker.device());
  TORCH_CHECK(growth_tracker.numel() == 1, op, ": growth_tracker must be a 1-element tensor, got ",
              growth_tracker.numel(), " elements");
  TORCH_CHECK(growth_tracker.scalar_type() == at::ScalarType::Int, op, ": growth_tracker must be an int tensor, got ",
              growth_tracker.scalar_type());
  TORCH_CHECK(growth_interval > 0, op, ": growth_interval must be positive, got ", growth_interval);
  c10_npu::NPUGuard guard(self.device());
  EXEC_NPU_CMD(aclnnAmpUpdateScale, self, growth_tracker, found_inf, scale_growth_factor, scale_backoff_factor,
               growth_interval, self, growth_tracker);
  return self;
}

}  // namespace op_api
