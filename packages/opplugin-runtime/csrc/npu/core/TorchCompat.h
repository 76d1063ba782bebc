// The one place where differences between supported torch releases live.
// Everything else in the runtime is written once against these switches.
//
// The switches are VERSION_BETWEEN ranges over the version labels of
// yaml/versions.yaml: "npu/version.h" is generated for the label being built
// (opplugin-codegen), defines V2R1 ... VERSION_NEWEST and CURRENT_VERSION, and
// refuses to compile against a torch other than the label's.
//
//   NPU_ALLOCATOR_CONST            "const" where c10::Allocator::allocate is const
//   NPU_ALLOCATOR_HAS_COPY_DATA    c10::Allocator::copy_data exists (pure virtual)
//   NPU_HOOKS_HAS_ACCEL_BASE       PrivateUse1HooksInterface derives from
//                                  AcceleratorHooksInterface (device/generator hooks)
//   NPU_HOOKS_GETDEFAULTGEN_CONST  qualifier of getDefaultGenerator
//   NPU_GUARD_STREAM_EVENT_OVERRIDE  `override` where DeviceGuardImplInterface has
//                                  getNewStream, synchronizeEvent, elapsedTime(a, b, device)
//                                  and synchronizeDevice (none of them exist in 2.1)
//   NPU_GENERATOR_HAS_OFFSET       GeneratorImpl has set_offset/get_offset
//   NPU_HAS_UNSIGNED_SCALAR_TYPES  ScalarType::UInt16/UInt32/UInt64
//   NPU_HAS_FLOAT8_E8M0            ScalarType::Float8_e8m0fnu (added in torch 2.7)
//   NPU_HAS_DIMNAME                at::Dimname / named tensors (removed in 2.13)
//   NPU_HAS_PRIVATEUSE1_PROFILER   torch::profiler::impl::PrivateUse1ProfilerRegistry and kineto's
//                                  headers (REGISTER_PRIVATEUSE1_PROFILER of a libkineto::IActivityProfiler),
//                                  used for device activity in torch.profiler (npu/observe/
//                                  NPUActivityProfiler.cpp). Present in 2.13 and 2.14, absent in 2.1
//                                  (no kineto headers at all); added upstream in Jan 2026 (pytorch#172154),
//                                  so the switch also tests for the header itself for the labels between.
//
// Verified by building and testing: v2.1 (torch 2.1.2), v2.13 (2.13.0), v2.14 (2.14.1).
// The cut-over labels in between are the releases that made each change as far as
// known (the allocator in 2.3, the accelerator hooks in 2.5, unsigned types in 2.3);
// builds for labels in between must be checked against that release's headers.
// Where the cut-over is not known, the declaration is written so that it compiles
// either way (NPU_GUARD_STREAM_EVENT_OVERRIDE: without `override` below v2.13 the
// method still overrides wherever the base declares it with this signature).
// Some differences need no switch: c10::SetStorageImplCreate's function type gained a
// DataPtr (both overloads of make_npu_storage_impl exist, the compiler picks);
// pybind11's c10::Stream caster is not loadable as an argument in 2.1 (streams cross
// the binding as (id, device index, device type)); torch 2.1 registers no
// AutogradPrivateUse1 fallback (npu/aten/AutogradFallback.cpp adds torch's own when
// the key has none, detected at load); 2.1 has no getNewGenerator hook
// (NPUHooks.cpp uses REGISTER_GENERATOR_PRIVATEUSE1 where NPU_HOOKS_HAS_ACCEL_BASE is 0).
#pragma once

#include "npu/version.h"

#if VERSION_BETWEEN(V2R3, VERSION_NEWEST)
#define NPU_ALLOCATOR_CONST
#define NPU_ALLOCATOR_HAS_COPY_DATA 1
#else
#define NPU_ALLOCATOR_CONST const
#define NPU_ALLOCATOR_HAS_COPY_DATA 0
#endif

#if VERSION_BETWEEN(V2R5, VERSION_NEWEST)
#define NPU_HOOKS_HAS_ACCEL_BASE 1
#define NPU_HOOKS_GETDEFAULTGEN_CONST const
#else
#define NPU_HOOKS_HAS_ACCEL_BASE 0
#define NPU_HOOKS_GETDEFAULTGEN_CONST
#endif

#if VERSION_BETWEEN(V2R13, VERSION_NEWEST)
#define NPU_GUARD_STREAM_EVENT_OVERRIDE override
#else
#define NPU_GUARD_STREAM_EVENT_OVERRIDE
#endif

#define NPU_GENERATOR_HAS_OFFSET 1

#if VERSION_BETWEEN(V2R3, VERSION_NEWEST)
#define NPU_HAS_UNSIGNED_SCALAR_TYPES 1
#else
#define NPU_HAS_UNSIGNED_SCALAR_TYPES 0
#endif

#if VERSION_BETWEEN(V2R7, VERSION_NEWEST)
#define NPU_HAS_FLOAT8_E8M0 1
#else
#define NPU_HAS_FLOAT8_E8M0 0
#endif

// torch >= 2.14: a reflection/replication pad must leave every output dimension non-empty
// (before: at least one), and arange sizes an int64 range in double like the other dtypes
// (before: in int64, from the bounds cast to int64).
#if VERSION_BETWEEN(V2R14, VERSION_NEWEST)
#define NPU_PAD_EVERY_OUTPUT_DIM_NONEMPTY 1
#define NPU_ARANGE_LONG_SIZE_IN_DOUBLE 1
#else
#define NPU_PAD_EVERY_OUTPUT_DIM_NONEMPTY 0
#define NPU_ARANGE_LONG_SIZE_IN_DOUBLE 0
#endif

#if VERSION_BETWEEN(V2R1, V2R12)
#define NPU_HAS_DIMNAME 1
#else
#define NPU_HAS_DIMNAME 0
#endif

#if VERSION_BETWEEN(V2R11, VERSION_NEWEST) && defined(__has_include)
#if __has_include(<torch/csrc/profiler/standalone/privateuse1_profiler.h>)
#define NPU_HAS_PRIVATEUSE1_PROFILER 1
#endif
#endif
#ifndef NPU_HAS_PRIVATEUSE1_PROFILER
#define NPU_HAS_PRIVATEUSE1_PROFILER 0
#endif
