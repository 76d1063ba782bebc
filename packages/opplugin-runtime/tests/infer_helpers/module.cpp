// Python bindings of the runtime's op_infer / op_plugin helpers, for the tests that compare
// them with PyTorch's Meta kernels. Built at test time against the installed runtime (the
// helpers themselves are the runtime's, linked from opplugin_runtime._C).
#include "bindings.h"

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  BindAtenShapes(m);
  BindCustomShapes(m);
}
