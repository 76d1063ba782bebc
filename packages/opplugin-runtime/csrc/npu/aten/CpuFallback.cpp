// Ops without an npu kernel run on the CPU: inputs are copied to the host, the
// CPU kernel runs, results (and mutated inputs) are copied back. Warned once
// per op (NPU_FALLBACK=warn), silent, or an error (NPU_FALLBACK=error); every
// call counts as ExecPath::CpuFallback in the path ledger.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include "npu/aten/CpuFallback.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_set>

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/native/CPUFallback.h>
#include <c10/util/Exception.h>
#include <torch/library.h>

#include "npu/core/NPUFunctions.h"
#include "npu/core/NPUGenerator.h"
#include "npu/core/TorchCompat.h"
#include "npu/op_common/OpErrors.h"
#include "npu/dispatch/PathLedger.h"

namespace at_npu::native {
namespace {

FallbackMode ModeFromEnv() {
  const char* value = std::getenv("NPU_FALLBACK");
  if (value == nullptr || std::strcmp(value, "warn") == 0 || value[0] == '\0') {
    return FallbackMode::Warn;
  }
  if (std::strcmp(value, "silent") == 0) {
    return FallbackMode::Silent;
  }
  if (std::strcmp(value, "error") == 0) {
    return FallbackMode::Error;
  }
  TORCH_WARN("NPU_FALLBACK='", value, "' is not one of warn, silent, error; using warn");
  return FallbackMode::Warn;
}

std::atomic<FallbackMode>& Mode() {
  static std::atomic<FallbackMode> mode{ModeFromEnv()};
  return mode;
}

std::string OpName(const c10::OperatorHandle& op) {
  const c10::OperatorName& name = op.operator_name();
  std::string result = name.name;
  if (result.rfind("aten::", 0) == 0) {
    result.erase(0, 6);
  }
  if (!name.overload_name.empty()) {
    result += "." + name.overload_name;
  }
  return result;
}

// True the first time `op` falls back in this process.
bool FirstFallback(const std::string& op) {
  static std::mutex mutex;
  static std::unordered_set<std::string> seen;
  std::lock_guard<std::mutex> lock(mutex);
  return seen.insert(op).second;
}

// The npu device the op runs for, checking that tensors do not mix devices (0-dim CPU
// tensors are scalars and may be mixed in, as for CUDA) with the wrappers' check, so the
// message names the argument in this torch release's form (the caller names the op).
c10::optional<c10::Device> TargetDevice(const std::string& op_name, const c10::FunctionSchema& schema,
                                        c10::ArrayRef<c10::IValue> args) {
  c10::optional<c10::Device> common_device;
  c10::optional<c10::Device> device_argument;
  for (size_t i = 0; i < args.size(); ++i) {
    const c10::IValue& arg = args[i];
    const char* arg_name = i < schema.arguments().size() ? schema.arguments()[i].name().c_str() : "";
    if (arg.isTensor()) {
      check_npu_device(common_device, arg.toTensor(), op_name.c_str(), arg_name);
    } else if (arg.isTensorList()) {
      for (const at::Tensor& t : arg.toTensorList()) {
        check_npu_device(common_device, t, op_name.c_str(), arg_name);
      }
    } else if (arg.isOptionalTensorList()) {
      check_npu_device(common_device, arg.toOptionalTensorList(), op_name.c_str(), arg_name);
    } else if (arg.isDevice() && arg.toDevice().is_privateuseone() && !device_argument.has_value()) {
      device_argument = arg.toDevice();
    }
  }
  // Every tensor that is not a CPU scalar is on common_device now.
  return common_device.has_value() && common_device->is_privateuseone() ? common_device : device_argument;
}

bool IsGeneratorArgument(const c10::Argument& argument) {
  const c10::TypePtr& type = argument.type();
  if (type->kind() == c10::TypeKind::GeneratorType) {
    return true;
  }
  if (type->kind() == c10::TypeKind::OptionalType) {
    return type->castRaw<c10::OptionalType>()->getElementType()->kind() == c10::TypeKind::GeneratorType;
  }
  return false;
}

// CPU kernels need CPU generators: an npu generator (or none, meaning the
// device's default) becomes a CPU generator seeded from its next (seed, offset).
void RewriteGenerators(const c10::FunctionSchema& schema, c10::ArrayRef<c10::IValue> args,
                       torch::jit::Stack* stack, size_t begin, c10::optional<c10::Device> device) {
  for (size_t i = 0; i < schema.arguments().size(); ++i) {
    if (!IsGeneratorArgument(schema.arguments()[i])) {
      continue;
    }
    const c10::IValue& value = args[i];
    if (value.isNone()) {
      const c10::DeviceIndex index =
          device.has_value() && device->has_index() ? device->index() : c10_npu::current_device();
      (*stack)[begin + i] = c10::IValue(c10_npu::cpuGeneratorOf(c10_npu::getDefaultNPUGenerator(index)));
    } else if (value.isGenerator() && value.toGenerator().device().is_privateuseone()) {
      (*stack)[begin + i] = c10::IValue(c10_npu::cpuGeneratorOf(value.toGenerator()));
    }
  }
}

void NpuCpuFallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  const std::string name = OpName(op);
  const FallbackMode mode = Mode().load(std::memory_order_relaxed);
  TORCH_CHECK_NOT_IMPLEMENTED(mode != FallbackMode::Error, "The operator '", name,
                              "' has no npu kernel, and NPU_FALLBACK=error forbids running it on the CPU.");
  const c10::FunctionSchema& schema = op.schema();
  const size_t num_arguments = schema.arguments().size();
  const size_t begin = stack->size() - num_arguments;
  const c10::ArrayRef<c10::IValue> args(stack->data() + begin, num_arguments);
  // Mixed devices are rejected before the ledger counts (or the warning announces) a fallback.
  c10::optional<c10::Device> device;
  try {
    device = TargetDevice(name, schema, args);
  } catch (...) {
    rethrow_naming_op(name.c_str());
  }
  PathLedger::Hit(PathLedger::Entry(name), ExecPath::CpuFallback);
  if (mode == FallbackMode::Warn && FirstFallback(name)) {
    TORCH_WARN("The operator '", name,
               "' has no npu kernel and falls back to the CPU (copies in and out; slow). "
               "Set NPU_FALLBACK=silent to hide this warning or NPU_FALLBACK=error to forbid the fallback.");
  }
  RewriteGenerators(schema, args, stack, begin, device);
  at::native::cpu_fallback(op, stack);
}

}  // namespace

FallbackMode GetFallbackMode() {
  return Mode().load(std::memory_order_relaxed);
}

void SetFallbackMode(FallbackMode mode) {
  Mode().store(mode, std::memory_order_relaxed);
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&NpuCpuFallback>());
}

#if NPU_ANY_DIMS_DEFAULT_RECURSES
// Without these the dispatcher picks torch's composite defaults, which recurse until the
// stack overflows (npu/core/TorchCompat.h).
TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("any.dims", torch::CppFunction::makeFromBoxedFunction<&NpuCpuFallback>());
  m.impl("any.dims_out", torch::CppFunction::makeFromBoxedFunction<&NpuCpuFallback>());
}
#endif

}  // namespace at_npu::native
