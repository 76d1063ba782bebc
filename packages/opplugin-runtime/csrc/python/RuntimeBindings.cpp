#include "python/RuntimeBindings.h"

#include <cstdint>
#include <memory>
#include <string>

#include <c10/util/Exception.h>
#include <pybind11/stl.h>

#include "acl/acl_rt.h"
#include "ascendc_sim/launch.h"
#include "npu/core/CannVersion.h"
#include "npu/core/NPUCachingAllocator.h"
#include "npu/core/NPUEvent.h"
#include "npu/core/NPUException.h"
#include "npu/core/NPUFunctions.h"
#include "npu/core/NPUGuard.h"
#include "npu/core/NPUStream.h"
#include "npu/core/SocVersion.h"

namespace py = pybind11;

namespace opplugin_runtime::python {
namespace {

c10::DeviceIndex Resolve(int device) {
  if (device < 0) {
    return c10_npu::current_device();
  }
  c10_npu::check_device_index(static_cast<c10::DeviceIndex>(device), "torch.npu");
  return static_cast<c10::DeviceIndex>(device);
}

// Streams cross the binding as (id, device index, device type): torch 2.1's
// pybind11 caster for c10::Stream cannot load an argument.
c10_npu::NPUStream Unpack(int64_t stream_id, int device_index, int device_type) {
  TORCH_CHECK(static_cast<c10::DeviceType>(device_type) == c10::DeviceType::PrivateUse1,
              "expected an npu stream, got a stream of device type ",
              c10::DeviceTypeName(static_cast<c10::DeviceType>(device_type)));
  return c10_npu::NPUStream(
      c10::Stream::unpack3(stream_id, static_cast<c10::DeviceIndex>(device_index), c10::DeviceType::PrivateUse1));
}

void AddStatArray(py::dict& out, const std::string& name, const c10_npu::NPUCachingAllocator::StatArray& stats) {
  static const char* const kPools[] = {"all", "small_pool", "large_pool"};
  for (size_t pool = 0; pool < stats.size(); ++pool) {
    const std::string prefix = name + "." + kPools[pool] + ".";
    out[py::str(prefix + "current")] = stats[pool].current;
    out[py::str(prefix + "peak")] = stats[pool].peak;
    out[py::str(prefix + "allocated")] = stats[pool].allocated;
    out[py::str(prefix + "freed")] = stats[pool].freed;
  }
}

// torch.cuda.memory_stats keys, plus the short names earlier releases of this runtime used.
py::dict MemoryStats(int device) {
  const auto s = c10_npu::NPUCachingAllocator::getDeviceStats(Resolve(device));
  py::dict out;
  AddStatArray(out, "allocation", s.allocation);
  AddStatArray(out, "segment", s.segment);
  AddStatArray(out, "active", s.active);
  AddStatArray(out, "allocated_bytes", s.allocated_bytes);
  AddStatArray(out, "reserved_bytes", s.reserved_bytes);
  AddStatArray(out, "active_bytes", s.active_bytes);
  AddStatArray(out, "requested_bytes", s.requested_bytes);
  out["num_alloc_retries"] = s.num_alloc_retries;
  out["num_ooms"] = s.num_ooms;
  out["num_device_alloc"] = s.num_device_alloc;
  out["num_device_free"] = s.num_device_free;
  out["num_cache_hits"] = s.num_cache_hits;
  out["allocated_bytes"] = s.allocated_bytes[0].current;
  out["reserved_bytes"] = s.reserved_bytes[0].current;
  out["peak_allocated_bytes"] = s.allocated_bytes[0].peak;
  out["peak_reserved_bytes"] = s.reserved_bytes[0].peak;
  out["num_allocs"] = s.allocation[0].allocated;
  out["num_device_mallocs"] = s.num_device_alloc;
  out["num_device_frees"] = s.num_device_free;
  return out;
}

py::tuple MemGetInfo(int device) {
  c10_npu::NPUGuard guard(Resolve(device));
  size_t free_bytes = 0;
  size_t total_bytes = 0;
  NPU_CHECK_ACL(aclrtGetMemInfo(0, &free_bytes, &total_bytes));
  return py::make_tuple(free_bytes, total_bytes);
}

py::dict DeviceProperties(int device) {
  const c10::DeviceIndex index = Resolve(device);
  c10_npu::NPUGuard guard(index);
  size_t free_bytes = 0;
  size_t total_bytes = 0;
  NPU_CHECK_ACL(aclrtGetMemInfo(0, &free_bytes, &total_bytes));
  py::dict out;
  const char* soc = aclrtGetSocName();
  out["name"] = std::string(soc != nullptr ? soc : "");
  out["total_memory"] = total_bytes;
  // Each simulated AI core has a cube and a vector unit, and kernels of both kinds launch one
  // block per core: the device's AI core, cube core and vector core counts are all that number.
  const uint32_t cores = aclsimGetCoreNumAiv();
  out["multi_processor_count"] = cores;
  out["cube_core_num"] = cores;
  out["vector_core_num"] = cores;
  out["ub_size"] = aclsimGetUbSize();
  return out;
}

// What an OptionalNPUGuard does to the current device, for tests: the device
// inside the guard's scope (after `set_index` when >= 0) and after it.
py::tuple OptionalGuardProbe(int device, int set_index) {
  c10::DeviceIndex inside = -1;
  {
    c10::optional<c10::DeviceIndex> index;
    if (device >= 0) {
      index = static_cast<c10::DeviceIndex>(device);
    }
    c10_npu::OptionalNPUGuard guard(index);
    if (set_index >= 0) {
      guard.set_index(static_cast<c10::DeviceIndex>(set_index));
    }
    inside = c10_npu::current_device();
  }
  return py::make_tuple(static_cast<int>(inside), static_cast<int>(c10_npu::current_device()));
}

}  // namespace

void InitRuntimeBindings(py::module& m) {
  // ---- streams ----
  m.def("stream_handle", [](int64_t stream_id, int device_index, int device_type) {
    return reinterpret_cast<uintptr_t>(Unpack(stream_id, device_index, device_type).stream());
  });

  // ---- events ----
  py::class_<c10_npu::NPUEvent, std::shared_ptr<c10_npu::NPUEvent>>(m, "_NPUEvent")
      .def(py::init<bool, bool>(), py::arg("enable_timing") = false, py::arg("blocking") = false)
      .def("record",
           [](c10_npu::NPUEvent& self, int64_t stream_id, int device_index, int device_type) {
             self.record(Unpack(stream_id, device_index, device_type));
           })
      .def("block",
           [](c10_npu::NPUEvent& self, int64_t stream_id, int device_index, int device_type) {
             self.block(Unpack(stream_id, device_index, device_type));
           })
      .def("query", &c10_npu::NPUEvent::query)
      .def("synchronize", &c10_npu::NPUEvent::synchronize, py::call_guard<py::gil_scoped_release>())
      .def("elapsed_time", &c10_npu::NPUEvent::elapsed_time)
      .def_property_readonly("device_index", [](const c10_npu::NPUEvent& self) { return static_cast<int>(self.device_index()); })
      .def_property_readonly("enable_timing", &c10_npu::NPUEvent::enableTiming)
      .def_property_readonly("blocking", &c10_npu::NPUEvent::blocking)
      .def_property_readonly("handle",
                             [](const c10_npu::NPUEvent& self) { return reinterpret_cast<uintptr_t>(self.event()); });

  // ---- memory ----
  m.def("memory_stats", &MemoryStats, py::arg("device") = -1);
  m.def(
      "reset_accumulated_memory_stats",
      [](int device) { c10_npu::NPUCachingAllocator::resetAccumulatedStats(Resolve(device)); }, py::arg("device") = -1);
  m.def("mem_get_info", &MemGetInfo, py::arg("device") = -1);

  // ---- devices ----
  m.def("device_properties", &DeviceProperties, py::arg("device") = -1);
  m.def("_optional_guard_probe", &OptionalGuardProbe);
  m.def("_npu_get_soc_version", [] { return static_cast<int>(c10_npu::GetSocVersion()); });

  // ---- toolkit version ----
  m.def("_get_cann_version", [](const std::string& module) { return c10_npu::GetCannVersion(module); },
        py::arg("module") = "CANN");
  m.def("_is_gte_cann_version",
        [](const std::string& version, const std::string& module) { return c10_npu::IsGteCannVersion(version, module); },
        py::arg("version"), py::arg("module") = "CANN");
}

}  // namespace opplugin_runtime::python
