// empty.memory_format and empty_strided for the npu device.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <c10/core/TensorOptions.h>
#include <c10/util/Exception.h>

#include "npu/aten/NPUNativeFunctions.h"
#include "npu/core/NPUEmptyTensor.h"

namespace at_npu::native {
namespace {

void CheckFactoryArgs(const char* op, c10::optional<at::Layout> layout, c10::optional<bool> pin_memory) {
  TORCH_CHECK(layout.value_or(at::kStrided) == at::kStrided, op, ": npu tensors must be strided, got layout ",
              *layout);
  TORCH_CHECK(!pin_memory.value_or(false), op, ": only CPU tensors can be pinned; got pin_memory=True for an npu tensor");
}

c10::Device NpuDevice(c10::optional<at::Device> device) {
  return device.value_or(c10::Device(c10::DeviceType::PrivateUse1));
}

}  // namespace

at::Tensor NPUNativeFunctions::empty(at::IntArrayRef size, c10::optional<at::ScalarType> dtype,
                                     c10::optional<at::Layout> layout, c10::optional<at::Device> device,
                                     c10::optional<bool> pin_memory, c10::optional<at::MemoryFormat> memory_format) {
  CheckFactoryArgs("empty", layout, pin_memory);
  return c10_npu::empty_npu(size, dtype.value_or(c10::get_default_dtype_as_scalartype()), NpuDevice(device),
                            memory_format);
}

at::Tensor NPUNativeFunctions::empty_strided(at::IntArrayRef size, at::IntArrayRef stride,
                                             c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout,
                                             c10::optional<at::Device> device, c10::optional<bool> pin_memory) {
  CheckFactoryArgs("empty_strided", layout, pin_memory);
  return c10_npu::empty_strided_npu(size, stride, dtype.value_or(c10::get_default_dtype_as_scalartype()),
                                    NpuDevice(device));
}

}  // namespace at_npu::native
