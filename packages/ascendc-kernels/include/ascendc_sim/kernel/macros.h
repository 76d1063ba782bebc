// Ascend C keyword macros on the CPU simulator. On hardware these are compiler
// address-space and entry-point qualifiers of bisheng; here they vanish so that
// kernel sources compile unchanged with g++/clang.
#ifndef ASCENDC_SIM_KERNEL_MACROS_H
#define ASCENDC_SIM_KERNEL_MACROS_H

#include <stdint.h>

#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif

// Kernel type declarations (vector-only, cube-only, mixed) select the core
// kind on hardware; the simulator's cores run any kernel.
enum KernelTaskType { KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIV_1_0, KERNEL_TYPE_MIX_AIC_1_2 };
#ifndef KERNEL_TASK_TYPE_DEFAULT
#define KERNEL_TASK_TYPE_DEFAULT(type) ((void)(type))
#endif

#endif  // ASCENDC_SIM_KERNEL_MACROS_H
