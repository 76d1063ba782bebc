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
//   NPU_HOOKS_*                    what at::PrivateUse1HooksInterface lets a backend override,
//                                  release by release (read from each release's headers):
//     2.1-2.2  no base class: getDefaultGenerator (not const), getDeviceFromPtr
//     2.3      an AcceleratorHooksInterface base (hasPrimaryContext); getPinnedMemoryAllocator,
//              initPrivateUse1, resizePrivateUse1Bytes      -> NPU_HOOKS_HAS_PRIMARY_CONTEXT
//     2.4      deviceCount, set/get/exchange/maybeExchangeDevice -> NPU_HOOKS_HAS_DEVICE_INDEX
//     2.5      getDefaultGenerator const, isPinnedPtr          -> NPU_HOOKS_HAS_PINNED_PTR,
//                                                                 NPU_HOOKS_GETDEFAULTGEN_CONST
//     2.6      init() replaces initPrivateUse1, getNewGenerator -> NPU_HOOKS_HAS_INIT
//     2.7      isBuilt, isAvailable                            -> NPU_HOOKS_HAS_AVAILABILITY
//   NPU_GENERATOR_FROM_REGISTRY   torch.Generator("npu") asks REGISTER_GENERATOR_PRIVATEUSE1's registry
//                                  (2.1-2.6; 2.6 has the getNewGenerator hook but its Python still reads
//                                  the registry; from 2.7 the registry is deprecated and the hook answers)
//   NPU_GUARD_STREAM_EVENT_OVERRIDE  `override` where DeviceGuardImplInterface has
//                                  getNewStream, synchronizeEvent, elapsedTime(a, b, device)
//                                  and synchronizeDevice (none of them exist in 2.1)
//   NPU_GENERATOR_HAS_OFFSET       GeneratorImpl has set_offset/get_offset
//   NPU_HAS_UNSIGNED_SCALAR_TYPES  ScalarType::UInt16/UInt32/UInt64
//   NPU_HAS_FLOAT8_E8M0            ScalarType::Float8_e8m0fnu (added in torch 2.7)
//   NPU_HAS_DIMNAME                at::Dimname / named tensors (removed in 2.13)
//   NPU_AUTOCAST_BY_DEVICE_TYPE    at::autocast's state functions take a DeviceType
//                                  (is_autocast_enabled(kPrivateUse1), from 2.4); before, each
//                                  backend had its own (is_privateuseone_enabled). npu/aten/
//                                  AutocastPolicies.cpp checks the switch against the header.
//   NPU_HAS_PRIVATEUSE1_PROFILER   torch::profiler::impl::PrivateUse1ProfilerRegistry and kineto's
//                                  headers (REGISTER_PRIVATEUSE1_PROFILER of a libkineto::IActivityProfiler),
//                                  used for device activity in torch.profiler (npu/observe/
//                                  NPUActivityProfiler.cpp). Present in 2.13 and 2.14, absent in 2.1
//                                  (no kineto headers at all); added upstream in Jan 2026 (pytorch#172154),
//                                  so the switch also tests for the header itself for the labels between.
//
// The cut-over labels were read from each release's headers (v2.1 ... v2.15) and are verified
// by building and testing every label (`nox -s prove -- all`; docs/proven-labels.json).
// NPU_GUARD_STREAM_EVENT_OVERRIDE spans several cut-overs (getNewStream, synchronizeEvent and
// elapsedTime appear in 2.4, synchronizeDevice in 2.6), so below v2.13 the methods are declared
// without `override`: each still overrides wherever the base declares it with this signature.
// Some differences need no switch: c10::SetStorageImplCreate's function type gained a
// DataPtr (both overloads of make_npu_storage_impl exist, the compiler picks);
// pybind11's c10::Stream caster is not loadable as an argument in 2.1 (streams cross
// the binding as (id, device index, device type)); torch 2.1 registers no
// AutogradPrivateUse1 fallback (npu/aten/AutogradFallback.cpp adds torch's own when
// the key has none, detected at load).
#pragma once

#include "npu/version.h"

#if VERSION_BETWEEN(V2R3, VERSION_NEWEST)
#define NPU_ALLOCATOR_CONST
#define NPU_ALLOCATOR_HAS_COPY_DATA 1
#else
#define NPU_ALLOCATOR_CONST const
#define NPU_ALLOCATOR_HAS_COPY_DATA 0
#endif

#define NPU_HOOKS_HAS_PRIMARY_CONTEXT VERSION_BETWEEN(V2R3, VERSION_NEWEST)
#define NPU_HOOKS_HAS_DEVICE_INDEX VERSION_BETWEEN(V2R4, VERSION_NEWEST)
#define NPU_HOOKS_HAS_PINNED_PTR VERSION_BETWEEN(V2R5, VERSION_NEWEST)
#define NPU_HOOKS_HAS_INIT VERSION_BETWEEN(V2R6, VERSION_NEWEST)
#define NPU_HOOKS_HAS_AVAILABILITY VERSION_BETWEEN(V2R7, VERSION_NEWEST)
#define NPU_GENERATOR_FROM_REGISTRY VERSION_BETWEEN(V2R1, V2R6)
#if NPU_HOOKS_HAS_PINNED_PTR
#define NPU_HOOKS_GETDEFAULTGEN_CONST const
#else
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

// torch 2.2: the composite defaults of any.dims and any.dims_out (new in 2.2) call each other
// endlessly for a backend without kernels of its own; the runtime points them at the CPU fallback
// (npu/aten/CpuFallback.cpp). all.dims has npu kernels from v2.2 on.
#define NPU_ANY_DIMS_DEFAULT_RECURSES VERSION_BETWEEN(V2R2, V2R2)

// torch >= 2.3: CPU's batch norm refuses an empty input in training mode (2.1 and 2.2 compute
// NaN statistics for it).
#define NPU_BATCH_NORM_REJECTS_EMPTY_TRAINING VERSION_BETWEEN(V2R3, VERSION_NEWEST)

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

#if VERSION_BETWEEN(V2R4, VERSION_NEWEST)
#define NPU_AUTOCAST_BY_DEVICE_TYPE 1
#else
#define NPU_AUTOCAST_BY_DEVICE_TYPE 0
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
