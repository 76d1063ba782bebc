// The Ascend C API subset on the CPU simulator (namespace AscendC), header-only.
//
// Kernels written against it compile with an ordinary C++17 compiler, in any
// shared library: all per-core state (block index, block count, the unified
// buffer) comes from libascendcl through the aclsim* functions of
// ascendc_sim/launch.h, and failures (UB exhausted, misaligned DataCopy, queue
// misuse) fail the launch with a message that names the kernel.
//
// Contents:
//   __global__, __aicore__, __gm__, GM_ADDR           ascendc_sim/kernel/macros.h
//   half, bfloat16_t                                  ascendc_sim/kernel/fp_types.h
//   GlobalTensor, LocalTensor, TPosition              ascendc_sim/kernel/tensor.h
//   TPipe, TQue, TQueBind, TBuf, GetBlockIdx/Num      ascendc_sim/kernel/pipe.h
//   DataCopy, DataCopyPad (+ params)                  ascendc_sim/kernel/data_copy.h
//   Add Sub Mul Div Max Min Abs Exp Ln Sqrt Relu Reciprocal
//   Adds Muls Maxs Mins Axpy Duplicate Cast Rsqrt     ascendc_sim/kernel/vector_ops.h
//   Compare CompareScalar Select ReduceSum/Max/Min    ascendc_sim/kernel/compare_reduce.h
//   LoadData Mmad Fixpipe (cube: A1/B1 L1, A2 L0A,
//   B2 L0B, CO1 L0C; ND tiles)                        ascendc_sim/kernel/cube_ops.h
//   ascendc_sim::LaunchKernel, ACLRT_LAUNCH_KERNEL    ascendc_sim/launch_kernel.h
#ifndef ASCENDC_SIM_KERNEL_OPERATOR_H
#define ASCENDC_SIM_KERNEL_OPERATOR_H

#include "ascendc_sim/kernel/macros.h"
#include "ascendc_sim/kernel/fp_types.h"
#include "ascendc_sim/kernel/trap.h"
#include "ascendc_sim/kernel/tensor.h"
#include "ascendc_sim/kernel/pipe.h"
#include "ascendc_sim/kernel/data_copy.h"
#include "ascendc_sim/kernel/arith.h"
#include "ascendc_sim/kernel/vector_ops.h"
#include "ascendc_sim/kernel/compare_reduce.h"
#include "ascendc_sim/kernel/bitwise_ops.h"
#include "ascendc_sim/kernel/math_ops.h"
#include "ascendc_sim/kernel/special_math.h"
#include "ascendc_sim/kernel/cube_ops.h"
#include "ascendc_sim/launch_kernel.h"

#endif  // ASCENDC_SIM_KERNEL_OPERATOR_H
