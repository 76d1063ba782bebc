// Kernel-side failure: report the error to the runtime (which fails the launch
// and names the kernel) and unwind the running block.
#ifndef ASCENDC_SIM_KERNEL_TRAP_H
#define ASCENDC_SIM_KERNEL_TRAP_H

#include <stdarg.h>
#include <stdio.h>

#include "ascendc_sim/launch.h"

namespace ascendc_sim {

// Thrown after aclsimReportKernelError; the simulator catches it around each block.
struct KernelTrap {};

[[noreturn]] inline void KernelFail(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

inline void KernelFail(const char* fmt, ...) {
  char message[512];
  va_list args;
  va_start(args, fmt);
  vsnprintf(message, sizeof(message), fmt, args);
  va_end(args);
  aclsimReportKernelError(message);
  throw KernelTrap{};
}

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNEL_TRAP_H
