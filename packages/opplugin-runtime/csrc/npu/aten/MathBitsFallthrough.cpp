// _copy_from skips the Conjugate/Negative fallbacks: its schema has no mutable
// annotation, so those fallbacks would clone the conj/neg source, and the clone
// copies through _copy_from again (endless recursion, then a segfault). The npu
// copy honours the bits itself (see CopyImpl.cpp).
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

TORCH_LIBRARY_IMPL(aten, Conjugate, m) {
  m.impl("_copy_from", torch::CppFunction::makeFallthrough());
}

TORCH_LIBRARY_IMPL(aten, Negative, m) {
  m.impl("_copy_from", torch::CppFunction::makeFallthrough());
}
