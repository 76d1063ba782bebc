// Bindings of the tracing pieces: path expectations (torch.npu.expect_paths),
// decision traces (torch.npu.explain) and device-activity availability.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include <c10/util/Exception.h>

#include "npu/observe/NPUActivityProfiler.h"
#include "npu/dispatch/PathLedger.h"

namespace py = pybind11;

namespace {

using at_npu::native::ExecPath;
using at_npu::native::ExecPathName;
using at_npu::native::kNumExecPaths;
using at_npu::native::OpLedgerEntry;

ExecPath ParsePath(const std::string& op, const std::string& name) {
  for (size_t i = 0; i < kNumExecPaths; ++i) {
    if (name == ExecPathName(static_cast<ExecPath>(i))) {
      return static_cast<ExecPath>(i);
    }
  }
  TORCH_CHECK(false, "expect_paths: unknown path '", name, "' for ", op,
              " (expected op_api, acl_op, compat, cpu_fallback or dvm)");
}

std::string DescribeMask(uint32_t mask) {
  std::string out;
  for (size_t i = 0; i < kNumExecPaths; ++i) {
    if ((mask & (1u << i)) != 0) {
      out += out.empty() ? "" : " or ";
      out += ExecPathName(static_cast<ExecPath>(i));
    }
  }
  return out;
}

// Raises, from inside the op, when a path outside the expectations runs.
class ExpectationObserver final : public at_npu::native::PathObserver {
 public:
  ExpectationObserver(std::unordered_map<std::string, uint32_t> expected, bool strict)
      : expected_(std::move(expected)), strict_(strict) {}

  void OnPath(const OpLedgerEntry& entry, ExecPath path) override {
    const uint32_t bit = 1u << static_cast<uint32_t>(path);
    auto it = expected_.find(entry.name);
    if (it == expected_.end()) {
      TORCH_CHECK(!strict_, "expect_paths(strict=True): ", entry.name, " ran on the ", ExecPathName(path),
                  " path, but no path is expected for ", entry.name);
      return;
    }
    TORCH_CHECK((it->second & bit) != 0, "expect_paths: ", entry.name, " ran on the ", ExecPathName(path),
                " path, expected ", DescribeMask(it->second));
  }

  void OnStep(const char*, const char*, const char*, bool, const std::string&) override {}

 private:
  std::unordered_map<std::string, uint32_t> expected_;
  bool strict_;
};

using TraceEvent = std::tuple<std::string, std::string, std::string, std::string, bool, std::string>;

// Records the decision steps and paths of the thread (torch.npu.explain).
class TraceRecorder final : public at_npu::native::PathObserver {
 public:
  void OnPath(const OpLedgerEntry& entry, ExecPath path) override {
    events_.emplace_back("path", entry.name, ExecPathName(path), "", true, "");
  }

  void OnStep(const char* op, const char* step, const char* subject, bool value, const std::string& detail) override {
    events_.emplace_back("step", op, step, subject, value, detail);
  }

  std::vector<TraceEvent> Take() { return std::move(events_); }

 private:
  std::vector<TraceEvent> events_;
};

struct Installed {
  int64_t id;
  std::unique_ptr<at_npu::native::PathObserver> observer;
  std::unique_ptr<at_npu::native::ScopedPathObserver> scope;
};

thread_local std::vector<Installed> tls_installed;
int64_t g_next_id = 1;  // under the GIL

int64_t Install(std::unique_ptr<at_npu::native::PathObserver> observer) {
  Installed installed{g_next_id++, std::move(observer), nullptr};
  installed.scope = std::make_unique<at_npu::native::ScopedPathObserver>(installed.observer.get());
  tls_installed.push_back(std::move(installed));
  return tls_installed.back().id;
}

std::unique_ptr<at_npu::native::PathObserver> Uninstall(int64_t id, const char* api) {
  TORCH_CHECK(!tls_installed.empty() && tls_installed.back().id == id, api,
              ": path observers must be removed innermost first, on the thread that installed them");
  Installed installed = std::move(tls_installed.back());
  tls_installed.pop_back();
  installed.scope.reset();
  return std::move(installed.observer);
}

int64_t PushExpectations(const std::unordered_map<std::string, std::vector<std::string>>& expected, bool strict) {
  std::unordered_map<std::string, uint32_t> masks;
  for (const auto& [op, paths] : expected) {
    uint32_t mask = 0;
    for (const std::string& path : paths) {
      mask |= 1u << static_cast<uint32_t>(ParsePath(op, path));
    }
    TORCH_CHECK(mask != 0, "expect_paths: no path given for ", op);
    masks.emplace(op, mask);
  }
  return Install(std::make_unique<ExpectationObserver>(std::move(masks), strict));
}

}  // namespace

void InitTraceBindings(py::module& m) {
  m.def("push_path_expectations", &PushExpectations, py::arg("expected"), py::arg("strict"));
  m.def("pop_path_expectations", [](int64_t id) { Uninstall(id, "expect_paths"); });
  m.def("explain_begin", [] { return Install(std::make_unique<TraceRecorder>()); });
  m.def("explain_end", [](int64_t id) {
    auto observer = Uninstall(id, "explain");
    return static_cast<TraceRecorder*>(observer.get())->Take();
  });
  m.def("path_observers_active", [] { return at_npu::native::PathObserved(); });
  m.def("device_activity_available", [] { return at_npu::native::DeviceActivityProfilerAvailable(); });
}
