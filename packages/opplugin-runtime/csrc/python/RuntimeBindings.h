// Bindings of streams, events, the caching allocator and device properties
// (torch.npu's runtime surface), added to opplugin_runtime._C by Module.cpp.
#pragma once

#include <pybind11/pybind11.h>

namespace opplugin_runtime::python {

void InitRuntimeBindings(pybind11::module& m);

}  // namespace opplugin_runtime::python
