// A `npu::<op>` range for torch.profiler (and any RecordFunction callback).
// When no callback is active the guard costs the RecordFunction constructor's
// callback check and nothing else: the name is only built while recording.
#pragma once

#include <string>

#include <ATen/record_function.h>

namespace at_npu::native {

class NPURecordFunctionGuard {
 public:
  explicit NPURecordFunctionGuard(const char* op) : record_(at::RecordScope::FUNCTION) {
    if (C10_UNLIKELY(record_.isActive())) {
      Begin(op);
    }
  }

  NPURecordFunctionGuard(const NPURecordFunctionGuard&) = delete;
  NPURecordFunctionGuard& operator=(const NPURecordFunctionGuard&) = delete;

 private:
  void Begin(const char* op);

  std::string name_;  // declared first: destroyed after record_, which refers to it
  at::RecordFunction record_;
};

}  // namespace at_npu::native
