// Route 2: a Python extension module calling the same wrapper directly. It
// registers no schema, so it gives torch.compile nothing to trace.
#include <torch/extension.h>

#include "ascendc_add.h"

PYBIND11_MODULE(ascendc_ops, m) {
  m.doc() = "add_custom, an Ascend C kernel, bound with pybind11";
  m.def("ascendc_add", &ascendc_ops::ascendc_add, "z = x + y on npu (same shape, dtype and device)");
}
