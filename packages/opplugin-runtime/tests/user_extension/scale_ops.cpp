// A user extension built against the installed runtime with NpuExtension: an
// Ascend C kernel launched on the current npu stream, and an op_api call made
// with the runtime's EXEC_NPU_CMD, both registered for the npu device.
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <torch/library.h>

#include "kernel_operator.h"
#include "npu/core/NPUGuard.h"
#include "npu/core/NPUStream.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/op_api/op_api_common.h"

namespace {

constexpr uint32_t kTile = 64;

// y = x * value, one tile of kTile floats per block.
extern "C" __global__ __aicore__ void scale_kernel(GM_ADDR x, GM_ADDR y, float value) {
  AscendC::GlobalTensor<float> x_gm;
  AscendC::GlobalTensor<float> y_gm;
  x_gm.SetGlobalBuffer((__gm__ float*)x + kTile * AscendC::GetBlockIdx(), kTile);
  y_gm.SetGlobalBuffer((__gm__ float*)y + kTile * AscendC::GetBlockIdx(), kTile);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
  pipe.InitBuffer(buffer, kTile * sizeof(float));
  AscendC::LocalTensor<float> local = buffer.Get<float>();
  AscendC::DataCopy(local, x_gm, kTile);
  AscendC::Muls(local, local, value, kTile);
  AscendC::DataCopy(y_gm, local, kTile);
}

at::Tensor scale(const at::Tensor& x, double value) {
  TORCH_CHECK(x.device().is_privateuseone() && x.scalar_type() == at::kFloat && x.is_contiguous(),
              "scale: expected a contiguous float npu tensor");
  TORCH_CHECK(x.numel() % kTile == 0, "scale: numel must be a multiple of ", kTile);
  c10_npu::NPUGuard guard(x.device());
  at::Tensor y = at::empty(x.sizes(), x.options());
  const uint32_t blocks = static_cast<uint32_t>(x.numel() / kTile);
  const aclError err = ACLRT_LAUNCH_KERNEL(scale_kernel)(blocks, c10_npu::getCurrentNPUStream().stream(),
                                                         x.const_data_ptr(), y.mutable_data_ptr(),
                                                         static_cast<float>(value));
  TORCH_CHECK(err == ACL_SUCCESS, "scale: launch failed: ", aclGetRecentErrMsg());
  return y;
}

at::Tensor axpy(const at::Tensor& x, const at::Tensor& y, double alpha) {
  c10_npu::NPUGuard guard(x.device());
  at::Tensor out = at_npu::native::OpPreparation::apply_tensor_without_format(y);
  EXEC_NPU_CMD(aclnnAdd, y, x, at::Scalar(alpha), out);
  return out;
}

}  // namespace

TORCH_LIBRARY(user_npu_ops, m) {
  m.def("scale(Tensor x, float value) -> Tensor");
  m.def("axpy(Tensor x, Tensor y, float alpha) -> Tensor");
}

TORCH_LIBRARY_IMPL(user_npu_ops, PrivateUse1, m) {
  m.impl("scale", TORCH_FN(scale));
  m.impl("axpy", TORCH_FN(axpy));
}
