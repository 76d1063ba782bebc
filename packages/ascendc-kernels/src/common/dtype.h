// Data type and format facts shared by the runtime, the acl_op executor and
// the aclnn entry points.
#ifndef ASCENDC_SIM_COMMON_DTYPE_H
#define ASCENDC_SIM_COMMON_DTYPE_H

#include <stddef.h>

#include "acl/acl_base.h"

namespace ascendc_sim {

inline const char* DataTypeName(aclDataType dt) {
  switch (dt) {
    case ACL_DT_UNDEFINED: return "ACL_DT_UNDEFINED";
    case ACL_FLOAT: return "ACL_FLOAT";
    case ACL_FLOAT16: return "ACL_FLOAT16";
    case ACL_INT8: return "ACL_INT8";
    case ACL_INT32: return "ACL_INT32";
    case ACL_UINT8: return "ACL_UINT8";
    case ACL_INT16: return "ACL_INT16";
    case ACL_UINT16: return "ACL_UINT16";
    case ACL_UINT32: return "ACL_UINT32";
    case ACL_INT64: return "ACL_INT64";
    case ACL_UINT64: return "ACL_UINT64";
    case ACL_DOUBLE: return "ACL_DOUBLE";
    case ACL_BOOL: return "ACL_BOOL";
    case ACL_COMPLEX64: return "ACL_COMPLEX64";
    case ACL_COMPLEX128: return "ACL_COMPLEX128";
    case ACL_BF16: return "ACL_BF16";
    case ACL_STRING: return "ACL_STRING";
    case ACL_INT4: return "ACL_INT4";
    case ACL_UINT1: return "ACL_UINT1";
    case ACL_COMPLEX32: return "ACL_COMPLEX32";
    case ACL_HIFLOAT8: return "ACL_HIFLOAT8";
    case ACL_FLOAT8_E5M2: return "ACL_FLOAT8_E5M2";
    case ACL_FLOAT8_E4M3FN: return "ACL_FLOAT8_E4M3FN";
    case ACL_FLOAT8_E8M0: return "ACL_FLOAT8_E8M0";
    case ACL_FLOAT6_E3M2: return "ACL_FLOAT6_E3M2";
    case ACL_FLOAT6_E2M3: return "ACL_FLOAT6_E2M3";
    case ACL_FLOAT4_E2M1: return "ACL_FLOAT4_E2M1";
    case ACL_FLOAT4_E1M2: return "ACL_FLOAT4_E1M2";
  }
  return "ACL_DT_UNKNOWN";
}

inline size_t DataTypeSize(aclDataType dt) {
  switch (dt) {
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0: return 1;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16: return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32: return 4;
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE:
    case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 0;
  }
}

inline bool IsFloatingType(aclDataType dt) {
  return dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16 || dt == ACL_DOUBLE;
}

// Integral types; bool counts only when `includeBool`.
inline bool IsIntegralType(aclDataType dt, bool includeBool) {
  switch (dt) {
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_INT16:
    case ACL_INT32:
    case ACL_INT64: return true;
    case ACL_BOOL: return includeBool;
    default: return false;
  }
}

// The element types the simulator's kernels compute on (PyTorch's real and
// bool dtypes): bool, int8/16/32/64, uint8, float16, bfloat16, float, double.
inline bool IsKernelType(aclDataType dt) { return IsFloatingType(dt) || IsIntegralType(dt, true); }

// PyTorch's complex dtypes the simulator holds: complex64 (two floats) and complex128 (two doubles).
inline bool IsComplexType(aclDataType dt) { return dt == ACL_COMPLEX64 || dt == ACL_COMPLEX128; }

// The real type of a complex type's parts (ACL_DT_UNDEFINED for a type that is not complex).
inline aclDataType ComplexPartType(aclDataType dt) {
  return dt == ACL_COMPLEX64 ? ACL_FLOAT : dt == ACL_COMPLEX128 ? ACL_DOUBLE : ACL_DT_UNDEFINED;
}

// The types the data-movement kernels (fill, cast, view copy) handle: the kernel types and the complex ones.
inline bool IsCopyType(aclDataType dt) { return IsKernelType(dt) || IsComplexType(dt); }

inline const char* FormatName(aclFormat f) {
  switch (f) {
    case ACL_FORMAT_UNDEFINED: return "ACL_FORMAT_UNDEFINED";
    case ACL_FORMAT_NCHW: return "ACL_FORMAT_NCHW";
    case ACL_FORMAT_NHWC: return "ACL_FORMAT_NHWC";
    case ACL_FORMAT_ND: return "ACL_FORMAT_ND";
    case ACL_FORMAT_NC1HWC0: return "ACL_FORMAT_NC1HWC0";
    case ACL_FORMAT_FRACTAL_Z: return "ACL_FORMAT_FRACTAL_Z";
    case ACL_FORMAT_NCDHW: return "ACL_FORMAT_NCDHW";
    case ACL_FORMAT_FRACTAL_NZ: return "ACL_FORMAT_FRACTAL_NZ";
    case ACL_FORMAT_NCL: return "ACL_FORMAT_NCL";
  }
  return "ACL_FORMAT_UNKNOWN";
}

// Base (public, dense row-major) formats; the others are internal layouts.
inline bool IsBaseFormat(aclFormat f) {
  return f == ACL_FORMAT_ND || f == ACL_FORMAT_NCHW || f == ACL_FORMAT_NHWC || f == ACL_FORMAT_NCDHW ||
         f == ACL_FORMAT_NCL || f == ACL_FORMAT_UNDEFINED;
}

inline bool IsKnownFormat(int f) {
  switch (f) {
    case ACL_FORMAT_UNDEFINED:
    case ACL_FORMAT_NCHW:
    case ACL_FORMAT_NHWC:
    case ACL_FORMAT_ND:
    case ACL_FORMAT_NC1HWC0:
    case ACL_FORMAT_FRACTAL_Z:
    case ACL_FORMAT_NCDHW:
    case ACL_FORMAT_FRACTAL_NZ:
    case ACL_FORMAT_NCL: return true;
    default: return false;
  }
}

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_COMMON_DTYPE_H
