// The Python extension module opplugin_runtime._C: bindings for the torch.npu
// device module. The only translation unit that includes torch/extension.h.
#include <torch/csrc/jit/python/pybind_utils.h>
#include <torch/extension.h>

#include <memory>
#include <string>

#include "npu/aten/CpuFallback.h"
#include "npu/core/NPUCachingAllocator.h"
#include "npu/core/NPUFunctions.h"
#include "npu/core/NPUGenerator.h"
#include "npu/core/NPUStream.h"
#include "npu/core/TorchCompat.h"
#include "npu/dispatch/EnvVariables.h"
#include "npu/dispatch/ForceAclnn.h"
#include "npu/format/FormatHelper.h"
#include "npu/observe/OpHook.h"
#include "npu/dispatch/PathLedger.h"
#include "python/RuntimeBindings.h"

namespace py = pybind11;

void InitTraceBindings(py::module& m);  // TraceBindings.cpp
void InitHostMemoryBindings(py::module& m);  // HostMemoryBindings.cpp
void InitDistributedBindings(py::module& m);  // DistributedBindings.cpp
void InitAutocastBindings(py::module& m);  // AutocastBindings.cpp

namespace {

// A Python callable shared by C++ copies of a hook; the last owner drops the
// reference with the GIL held (hooks run on any thread, e.g. autograd's).
using SharedPyObject = std::shared_ptr<py::object>;

SharedPyObject Share(py::object object) {
  return SharedPyObject(new py::object(std::move(object)), [](py::object* p) {
    py::gil_scoped_acquire gil;
    delete p;
  });
}

int64_t RegisterOpHook(py::object pre, py::object post) {
  at_npu::native::OpPreHookFn pre_fn;
  at_npu::native::OpPostHookFn post_fn;
  if (!pre.is_none()) {
    TORCH_CHECK(PyCallable_Check(pre.ptr()), "register_op_hook: pre must be callable or None");
    pre_fn = [callable = Share(std::move(pre))](const char* op, const std::vector<c10::IValue>& args) {
      py::gil_scoped_acquire gil;
      py::tuple py_args(args.size());
      for (size_t i = 0; i < args.size(); ++i) {
        py_args[i] = torch::jit::toPyObject(args[i]);
      }
      (*callable)(py::str(op), py_args);
    };
  }
  if (!post.is_none()) {
    TORCH_CHECK(PyCallable_Check(post.ptr()), "register_op_hook: post must be callable or None");
    post_fn = [callable = Share(std::move(post))](const char* op, const c10::IValue& result) {
      py::gil_scoped_acquire gil;
      (*callable)(py::str(op), torch::jit::toPyObject(result));
    };
  }
  TORCH_CHECK(pre_fn || post_fn, "register_op_hook: give at least one of pre and post");
  return at_npu::native::OpHook::GetInstance().Register(std::move(pre_fn), std::move(post_fn));
}

py::dict PathLedgerSnapshot() {
  py::dict result;
  for (const auto& [op, counts] : at_npu::native::PathLedger::Snapshot()) {
    py::dict per_path;
    for (size_t i = 0; i < at_npu::native::kNumExecPaths; ++i) {
      per_path[at_npu::native::ExecPathName(static_cast<at_npu::native::ExecPath>(i))] = counts[i];
    }
    result[py::str(op)] = per_path;
  }
  return result;
}

c10_npu::NPUStream UnpackStream(int64_t stream_id, int device_index, int device_type) {
  TORCH_CHECK(static_cast<c10::DeviceType>(device_type) == c10::DeviceType::PrivateUse1,
              "expected an npu stream, got a stream of device type ",
              c10::DeviceTypeName(static_cast<c10::DeviceType>(device_type)));
  return c10_npu::NPUStream(
      c10::Stream::unpack3(stream_id, static_cast<c10::DeviceIndex>(device_index), c10::DeviceType::PrivateUse1));
}

c10::DeviceIndex ResolveDevice(c10::DeviceIndex device) {
  return device < 0 ? c10_npu::current_device() : device;
}

at_npu::native::FallbackMode ParseFallbackMode(const std::string& mode) {
  if (mode == "warn") {
    return at_npu::native::FallbackMode::Warn;
  }
  if (mode == "silent") {
    return at_npu::native::FallbackMode::Silent;
  }
  TORCH_CHECK(mode == "error", "set_fallback_mode: expected 'warn', 'silent' or 'error', got '", mode, "'");
  return at_npu::native::FallbackMode::Error;
}

const char* FallbackModeName(at_npu::native::FallbackMode mode) {
  switch (mode) {
    case at_npu::native::FallbackMode::Warn:
      return "warn";
    case at_npu::native::FallbackMode::Silent:
      return "silent";
    case at_npu::native::FallbackMode::Error:
      return "error";
  }
  return "warn";
}

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  InitTraceBindings(m);
  InitHostMemoryBindings(m);
  InitDistributedBindings(m);
  InitAutocastBindings(m);
  m.doc() = "opplugin_runtime._C: the npu runtime (simulated CANN device) behind torch.npu";

  m.attr("torch_version_major") = TORCH_VERSION_MAJOR;
  m.attr("torch_version_minor") = TORCH_VERSION_MINOR;

  // ---- devices ----
  m.def("_init", [] { c10_npu::EnsureAclInitialized(); });
  m.def("_acl_initialized", [] { return c10_npu::AclInitialized(); });
  m.def("device_count", [] { return static_cast<int>(c10_npu::device_count()); });
  m.def("current_device", [] { return static_cast<int>(c10_npu::current_device()); });
  m.def("set_device", [](int device) { c10_npu::set_device(static_cast<c10::DeviceIndex>(device)); });
  m.def(
      "synchronize", [](int device) {
        py::gil_scoped_release no_gil;
        c10_npu::synchronize_device(static_cast<c10::DeviceIndex>(device));
      },
      py::arg("device") = -1);

  // ---- streams ----
  m.def(
      "current_stream", [](int device) { return c10_npu::getCurrentNPUStream(static_cast<c10::DeviceIndex>(device)).unwrap(); },
      py::arg("device") = -1);
  m.def(
      "default_stream", [](int device) { return c10_npu::getDefaultNPUStream(static_cast<c10::DeviceIndex>(device)).unwrap(); },
      py::arg("device") = -1);
  // Streams cross the binding as (id, device index, device type), not c10::Stream: torch
  // 2.1's pybind11 caster for c10::Stream cannot load an argument.
  m.def("set_stream", [](int64_t stream_id, int device_index, int device_type) {
    c10_npu::setCurrentNPUStream(UnpackStream(stream_id, device_index, device_type));
  });
  m.def(
      "new_stream",
      [](int device) {
        const c10::Stream s = c10_npu::getStreamFromPool(false, static_cast<c10::DeviceIndex>(device)).unwrap();
        return py::make_tuple(s.id(), static_cast<int>(s.device_index()), static_cast<int>(s.device_type()));
      },
      py::arg("device") = -1);
  m.def("query_stream", [](int64_t stream_id, int device_index, int device_type) {
    return UnpackStream(stream_id, device_index, device_type).query();
  });
  m.def("synchronize_stream", [](int64_t stream_id, int device_index, int device_type) {
    const c10_npu::NPUStream stream = UnpackStream(stream_id, device_index, device_type);
    py::gil_scoped_release no_gil;
    stream.synchronize();
  });

  // ---- memory ----
  m.def(
      "reset_peak_memory_stats",
      [](int device) { c10_npu::NPUCachingAllocator::resetPeakStats(ResolveDevice(static_cast<c10::DeviceIndex>(device))); },
      py::arg("device") = -1);
  m.def("empty_cache", [] {
    py::gil_scoped_release no_gil;
    c10_npu::NPUCachingAllocator::emptyCache();
  });

  // ---- streams, events, allocator statistics, device properties ----
  opplugin_runtime::python::InitRuntimeBindings(m);

  // ---- execution paths ----
  m.def("set_jit_compile", [](bool jit_compile) { at_npu::native::env::SetJitCompile(jit_compile); });
  m.def("is_jit_compile_false", [] { return at_npu::native::env::CheckJitDisable(); });
  m.def("set_allow_internal_format", [](bool allow) { at_npu::native::env::SetAllowInternalFormat(allow); });
  m.def("is_allow_internal_format", [] { return at_npu::native::env::IsAllowInternalFormat(); });
  m.def("reload_force_aclnn_list", [] { at_npu::native::ForceAclnn::GetInstance().Reload(); });
  m.def("path_ledger", &PathLedgerSnapshot);
  m.def("reset_path_ledger", [] { at_npu::native::PathLedger::Reset(); });
  m.def("set_fallback_mode", [](const std::string& mode) { at_npu::native::SetFallbackMode(ParseFallbackMode(mode)); });
  m.def("get_fallback_mode", [] { return std::string(FallbackModeName(at_npu::native::GetFallbackMode())); });

  // ---- op hooks ----
  m.def("register_op_hook", &RegisterOpHook, py::arg("pre") = py::none(), py::arg("post") = py::none());
  m.def("remove_op_hook", [](int64_t handle) { at_npu::native::OpHook::GetInstance().Remove(handle); });
  m.def("op_hook_enabled", [] { return at_npu::native::env::CheckOpHookEnable(); });

  // ---- random ----
  m.def(
      "default_generator", [](int device) { return c10_npu::getDefaultNPUGenerator(static_cast<c10::DeviceIndex>(device)); },
      py::arg("device") = -1);

  // ---- formats ----
  m.def("get_npu_format", [](const at::Tensor& tensor) {
    return std::string(at_npu::native::FormatHelper::GetFormatName(at_npu::native::FormatHelper::GetFormat(tensor)));
  });
}
