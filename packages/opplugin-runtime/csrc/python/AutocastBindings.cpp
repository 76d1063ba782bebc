// Bindings of the npu's autocast state (torch.npu.is_autocast_enabled, set_autocast_enabled,
// get_autocast_dtype, set_autocast_dtype). Dtypes cross as torch.dtype objects: torch 2.1 has no
// pybind11 caster for at::ScalarType.
#include <pybind11/pybind11.h>

#include <torch/csrc/Dtype.h>
#include <torch/csrc/DynamicTypes.h>

#include <c10/util/Exception.h>

#include "npu/aten/Autocast.h"

namespace py = pybind11;

void InitAutocastBindings(py::module& m) {
  m.def("is_autocast_enabled", [] { return at_npu::autocast::is_autocast_enabled(); });
  m.def("set_autocast_enabled", [](bool enabled) { at_npu::autocast::set_autocast_enabled(enabled); });
  m.def("get_autocast_dtype", [] {
    return py::reinterpret_borrow<py::object>(
        reinterpret_cast<PyObject*>(torch::getTHPDtype(at_npu::autocast::get_autocast_dtype())));
  });
  m.def("set_autocast_dtype", [](const py::object& dtype) {
    TORCH_CHECK_TYPE(THPDtype_Check(dtype.ptr()), "set_autocast_dtype: dtype must be a torch.dtype (got ",
                     Py_TYPE(dtype.ptr())->tp_name, ")");
    at_npu::autocast::set_autocast_dtype(reinterpret_cast<THPDtype*>(dtype.ptr())->scalar_type);
  });
}
