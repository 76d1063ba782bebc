// Route 1: a dispatcher operator. The schema is the contract; the PrivateUse1
// kernel is the npu implementation (there is no CPU kernel).
#include <torch/library.h>

#include "ascendc_add.h"

TORCH_LIBRARY(ascendc_ops, m) {
  m.def("ascendc_add(Tensor x, Tensor y) -> Tensor");
}

TORCH_LIBRARY_IMPL(ascendc_ops, PrivateUse1, m) {
  m.impl("ascendc_add", TORCH_FN(ascendc_ops::ascendc_add));
}
