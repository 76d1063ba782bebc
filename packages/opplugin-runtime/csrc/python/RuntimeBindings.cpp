#include "python/RuntimeBindings.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <c10/util/Exception.h>
#include <pybind11/stl.h>

#include "acl/acl_rt.h"
#include "ascendc_sim/launch.h"
#include "npu/core/CannVersion.h"
#include "npu/core/HostKernelLaunch.h"
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
  NPU_CHECK_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total_bytes));
  return py::make_tuple(free_bytes, total_bytes);
}

py::dict DeviceProperties(int device) {
  const c10::DeviceIndex index = Resolve(device);
  c10_npu::NPUGuard guard(index);
  size_t free_bytes = 0;
  size_t total_bytes = 0;
  NPU_CHECK_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total_bytes));
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

namespace alloc = c10_npu::NPUCachingAllocator;

bool PythonFinalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing() != 0;
#else
  return _Py_IsFinalizing() != 0;
#endif
}

// Memory history's frames: the Python stack of the calling thread, innermost first.
// torch's factories release the GIL, so it is taken here (as torch.cuda's history
// does; the allocator calls this without its own lock held). A thread with no
// Python frames (autograd's) gives an empty list.
std::shared_ptr<const alloc::Frames> GatherPythonFrames() {
  constexpr size_t kMaxFrames = 64;
  if (!Py_IsInitialized() || PythonFinalizing()) {
    return nullptr;
  }
  py::gil_scoped_acquire gil;
  auto frames = std::make_shared<alloc::Frames>();
  PyFrameObject* frame = PyEval_GetFrame();  // borrowed
  Py_XINCREF(frame);
  while (frame != nullptr && frames->size() < kMaxFrames) {
    PyCodeObject* code = PyFrame_GetCode(frame);  // new reference
    const char* filename = PyUnicode_AsUTF8(code->co_filename);
    const char* name = PyUnicode_AsUTF8(code->co_name);
    if (filename == nullptr || name == nullptr) {
      PyErr_Clear();
    }
    frames->push_back({filename != nullptr ? filename : "?", PyFrame_GetLineNumber(frame), name != nullptr ? name : "?"});
    Py_DECREF(code);
    PyFrameObject* back = PyFrame_GetBack(frame);  // new reference
    Py_DECREF(frame);
    frame = back;
  }
  Py_XDECREF(frame);
  return frames;
}

py::list FramesToList(const std::shared_ptr<const alloc::Frames>& frames) {
  py::list out;
  if (frames != nullptr) {
    for (const alloc::Frame& f : *frames) {
      py::dict frame;
      frame["filename"] = f.filename;
      frame["line"] = f.line;
      frame["name"] = f.name;
      out.append(std::move(frame));
    }
  }
  return out;
}

uintptr_t StreamHandle(c10::DeviceIndex device, c10::StreamId stream) {
  return reinterpret_cast<uintptr_t>(c10_npu::NPUStreamForId(device, stream).stream());
}

// _record_memory_history(enabled, context, stacks, max_entries, clear_history)
void RecordMemoryHistory(const std::optional<std::string>& enabled, const std::optional<std::string>& context,
                         const std::string& stacks, size_t max_entries, bool clear) {
  alloc::HistoryMode mode = alloc::HistoryMode::kOff;
  if (enabled.has_value()) {
    TORCH_CHECK(*enabled == "all" || *enabled == "state",
                "_record_memory_history: enabled must be 'all', 'state' or None, got '", *enabled, "'");
    mode = *enabled == "all" ? alloc::HistoryMode::kAll : alloc::HistoryMode::kState;
  }
  TORCH_CHECK(!context.has_value() || *context == "all" || *context == "alloc" || *context == "state",
              "_record_memory_history: context must be 'all', 'alloc', 'state' or None, got '", context.value_or(""),
              "'");
  TORCH_CHECK(stacks == "python" || stacks == "all", "_record_memory_history: stacks must be 'python' or 'all', got '",
              stacks, "'");
  const bool frames = context.has_value();
  alloc::recordHistory(mode, frames && *context == "all", max_entries, clear, frames ? &GatherPythonFrames : nullptr);
}

// torch.cuda.memory._snapshot()'s layout: {"segments": [...], "device_traces": [[...] per device]}.
py::dict MemorySnapshot() {
  const alloc::Snapshot snap = alloc::snapshot();
  py::list segments;
  for (const alloc::SegmentInfo& s : snap.segments) {
    py::dict segment;
    segment["device"] = static_cast<int>(s.device);
    segment["address"] = s.address;
    segment["total_size"] = s.total_size;
    segment["allocated_size"] = s.allocated_size;
    segment["active_size"] = s.active_size;
    segment["requested_size"] = s.requested_size;
    segment["stream"] = StreamHandle(s.device, s.stream);
    segment["segment_type"] = s.small ? "small" : "large";
    segment["segment_pool_id"] = py::make_tuple(0, s.pool);
    segment["is_expandable"] = false;
    segment["frames"] = s.blocks.empty() ? py::list() : FramesToList(s.blocks.front().frames);
    py::list blocks;
    for (const alloc::BlockInfo& b : s.blocks) {
      py::dict block;
      block["address"] = b.address;
      block["size"] = b.size;
      block["requested_size"] = b.requested;
      block["state"] = b.state;
      block["frames"] = FramesToList(b.frames);
      blocks.append(std::move(block));
    }
    segment["blocks"] = std::move(blocks);
    segments.append(std::move(segment));
  }
  std::vector<py::list> traces(static_cast<size_t>(c10_npu::device_count()));
  for (const alloc::TraceEntry& e : snap.trace) {
    if (static_cast<size_t>(e.device) >= traces.size()) {
      continue;
    }
    py::dict entry;
    entry["action"] = e.action;
    entry["addr"] = e.addr;
    entry["size"] = e.size;
    entry["stream"] = StreamHandle(e.device, e.stream);
    entry["time_us"] = e.time_us;
    entry["frames"] = FramesToList(e.frames);
    traces[static_cast<size_t>(e.device)].append(std::move(entry));
  }
  py::list device_traces;
  for (py::list& trace : traces) {
    device_traces.append(std::move(trace));
  }
  py::dict out;
  out["segments"] = std::move(segments);
  out["device_traces"] = std::move(device_traces);
  return out;
}

py::dict Utilization(int device) {
  const c10::DeviceIndex index = Resolve(device);
  aclrtUtilizationInfo info{};
  NPU_CHECK_ACL(aclrtGetDeviceUtilizationRate(static_cast<int32_t>(index), &info));
  py::dict out;
  out["cube"] = info.cubeUtilization;
  out["vector"] = info.vectorUtilization;
  out["aicpu"] = info.aicpuUtilization;
  out["memory"] = info.memoryUtilization;
  return out;
}

bool CanDeviceAccessPeer(int device, int peer) {
  int32_t can_access = 0;
  NPU_CHECK_ACL(aclrtDeviceCanAccessPeer(&can_access, static_cast<int32_t>(Resolve(device)),
                                         static_cast<int32_t>(Resolve(peer))));
  return can_access != 0;
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

  // The address of NpuLaunchHostKernel, handed to Inductor's generated kernel modules.
  m.def("_host_kernel_launcher", [] { return reinterpret_cast<uintptr_t>(&NpuLaunchHostKernel); });

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
  m.def(
      "set_memory_fraction",
      [](double fraction, int device) { alloc::setMemoryFraction(fraction, static_cast<c10::DeviceIndex>(device)); },
      py::arg("fraction"), py::arg("device"));
  m.def(
      "get_memory_fraction", [](int device) { return alloc::getMemoryFraction(static_cast<c10::DeviceIndex>(device)); },
      py::arg("device"));
  m.def("caching_allocator_alloc", [](size_t size, int device, int64_t stream_id, int stream_device, int stream_type) {
    const auto index = static_cast<c10::DeviceIndex>(device);
    c10_npu::check_device_index(index, "caching_allocator_alloc");
    const c10_npu::NPUStream stream =
        stream_type < 0 ? c10_npu::getCurrentNPUStream(index) : Unpack(stream_id, stream_device, stream_type);
    return reinterpret_cast<uintptr_t>(alloc::raw_alloc_with_stream(size, index, stream));
  });
  m.def("caching_allocator_delete", [](uintptr_t ptr) { alloc::raw_delete(reinterpret_cast<void*>(ptr)); });
  m.def("mem_pool_create", [] { return alloc::createPool(); });
  m.def("mem_pool_release", [](alloc::PoolId pool) { alloc::releasePool(pool); });
  m.def("mem_pool_begin", [](int device, alloc::PoolId pool) { alloc::beginAllocateToPool(Resolve(device), pool); });
  m.def("mem_pool_end", [](int device, alloc::PoolId pool) { alloc::endAllocateToPool(Resolve(device), pool); });
  m.def("record_memory_history", &RecordMemoryHistory, py::arg("enabled"), py::arg("context"), py::arg("stacks"),
        py::arg("max_entries"), py::arg("clear_history"));
  m.def("memory_snapshot", &MemorySnapshot);

  // ---- devices ----
  m.def("device_properties", &DeviceProperties, py::arg("device") = -1);
  m.def("utilization", &Utilization, py::arg("device") = -1);
  m.def("can_device_access_peer", &CanDeviceAccessPeer);
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
