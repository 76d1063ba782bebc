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

#endif  // ASCENDC_SIM_KERNEL_MACROS_H
