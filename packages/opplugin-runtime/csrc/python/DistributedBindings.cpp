// Bindings of the c10d backend: opplugin_runtime._C._distributed_c10d.ProcessGroupHCCL, a subclass of
// torch's c10d Backend. torch binds the base classes when torch.distributed initialises (not when
// torch._C loads), so the class is bound on demand: opplugin_runtime/distributed.py calls
// _C._init_distributed() after importing torch.distributed.
#include <pybind11/chrono.h>
#include <pybind11/pybind11.h>
#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <torch/csrc/utils/pybind.h>

#include <chrono>

#include "npu/distributed/ProcessGroupHCCL.h"

namespace py = pybind11;

namespace {

void BindProcessGroupHCCL(py::module& c10d) {
  using c10d_npu::ProcessGroupHCCL;
  auto cls = py::class_<ProcessGroupHCCL, c10d::Backend, c10::intrusive_ptr<ProcessGroupHCCL>>(c10d,
                                                                                                "ProcessGroupHCCL");
  cls.def(py::init([](const c10::intrusive_ptr<c10d::Store>& store, int rank, int size,
                      std::chrono::milliseconds timeout, std::string rankTableFile) {
            auto options = c10::make_intrusive<ProcessGroupHCCL::Options>(timeout);
            options->rankTableFile = std::move(rankTableFile);
            return c10::make_intrusive<ProcessGroupHCCL>(store, rank, size, options);
          }),
          py::arg("store"), py::arg("rank"), py::arg("size"), py::arg("timeout") = ::kBackendDefaultTimeout,
          py::arg("rank_table_file") = "", py::call_guard<py::gil_scoped_release>());
}

}  // namespace

void InitDistributedBindings(py::module& m) {
  py::module c10d = m.def_submodule("_distributed_c10d", "the hccl backend of torch.distributed");
  c10d.def("_init", [c10d]() mutable {
    if (py::hasattr(c10d, "ProcessGroupHCCL")) return;
    py::module::import("torch.distributed");  // binds c10d's Store and Backend
    BindProcessGroupHCCL(c10d);
  });
}
