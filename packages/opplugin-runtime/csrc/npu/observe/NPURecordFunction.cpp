#include "npu/observe/NPURecordFunction.h"

namespace at_npu::native {

void NPURecordFunctionGuard::Begin(const char* op) {
  name_.reserve(5 + std::char_traits<char>::length(op));
  name_.append("npu::").append(op);
  record_.before(name_);
}

}  // namespace at_npu::native
