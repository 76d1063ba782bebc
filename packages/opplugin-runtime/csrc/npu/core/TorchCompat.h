// The one place where differences between supported torch releases live.
// Everything else in the runtime is written once against these switches.
//
//   NPU_ALLOCATOR_CONST          "const" where c10::Allocator::allocate is const (< 2.3)
//   NPU_ALLOCATOR_HAS_COPY_DATA  c10::Allocator::copy_data exists (pure virtual) (>= 2.3)
//   NPU_HOOKS_HAS_ACCEL_BASE     PrivateUse1HooksInterface derives from
//                                AcceleratorHooksInterface (device/generator hooks) (>= 2.5)
//   NPU_HOOKS_GETDEFAULTGEN_CONST  qualifier of getDefaultGenerator
//   NPU_GENERATOR_HAS_OFFSET     GeneratorImpl has set_offset/get_offset (>= 2.1)
//   NPU_HAS_UNSIGNED_SCALAR_TYPES  ScalarType::UInt16/UInt32/UInt64 (>= 2.3)
//   NPU_HAS_DIMNAME              at::Dimname / named tensors (removed in 2.13)
//
// The cut-over releases for the allocator and the hooks are the earliest ones
// verified to need the new spelling; builds for labels in between must be
// checked against that release's headers.
#pragma once

#include <torch/version.h>

#define NPU_TORCH_VERSION_AT_LEAST(major, minor) \
  (TORCH_VERSION_MAJOR > (major) ||              \
   (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

#if NPU_TORCH_VERSION_AT_LEAST(2, 3)
#define NPU_ALLOCATOR_CONST
#define NPU_ALLOCATOR_HAS_COPY_DATA 1
#else
#define NPU_ALLOCATOR_CONST const
#define NPU_ALLOCATOR_HAS_COPY_DATA 0
#endif

#if NPU_TORCH_VERSION_AT_LEAST(2, 5)
#define NPU_HOOKS_HAS_ACCEL_BASE 1
#define NPU_HOOKS_GETDEFAULTGEN_CONST const
#else
#define NPU_HOOKS_HAS_ACCEL_BASE 0
#define NPU_HOOKS_GETDEFAULTGEN_CONST
#endif

#define NPU_GENERATOR_HAS_OFFSET 1

#if NPU_TORCH_VERSION_AT_LEAST(2, 3)
#define NPU_HAS_UNSIGNED_SCALAR_TYPES 1
#else
#define NPU_HAS_UNSIGNED_SCALAR_TYPES 0
#endif

#if __has_include(<ATen/core/Dimname.h>)
#define NPU_HAS_DIMNAME 1
#else
#define NPU_HAS_DIMNAME 0
#endif
