// Definitions of the aclnn object model's opaque types (aclnn/acl_meta.h).
// Shared by libascendcl (which creates and destroys them) and libopapi (which
// reads them); both are built from this package, with the same compiler.
#ifndef ASCENDC_SIM_META_ACL_META_TYPES_H
#define ASCENDC_SIM_META_ACL_META_TYPES_H

#include <stdint.h>
#include <string.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "ascendc_sim/kernel/fp_types.h"
#include "common/dtype.h"

namespace ascendc_sim {
// The shape of an output whose size depends on the data (aclnnNonzero, aclnnMaskedSelect),
// set on the stream once the op has run; aclGetViewShape reports it after a synchronisation.
struct ResultShape {
  std::atomic<bool> ready{false};
  std::vector<int64_t> dims;
};
}  // namespace ascendc_sim

// A strided view: element i lives at data + (offset + sum(i_k * strides_k)) * itemsize.
struct aclTensor {
  std::vector<int64_t> viewDims;
  std::vector<int64_t> strides;  // elements
  int64_t offset = 0;            // elements
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_ND;
  std::vector<int64_t> storageDims;
  void* data = nullptr;  // start of the storage
  std::shared_ptr<ascendc_sim::ResultShape> resultShape;  // data-dependent outputs only

  int64_t Numel() const {
    int64_t n = 1;
    for (int64_t d : viewDims) n *= d;
    return n;
  }
  int64_t StorageNumel() const {
    int64_t n = 1;
    for (int64_t d : storageDims) n *= d;
    return n;
  }
  // Row-major dense (dims of size 1 may have any stride).
  bool IsContiguous() const {
    int64_t expected = 1;
    for (size_t i = viewDims.size(); i-- > 0;) {
      if (viewDims[i] == 1) continue;
      if (strides[i] != expected) return false;
      expected *= viewDims[i];
    }
    return true;
  }
};

struct aclScalar {
  aclDataType dtype = ACL_DT_UNDEFINED;
  alignas(16) uint8_t value[16] = {};

  double ToDouble() const {
    switch (dtype) {
      case ACL_FLOAT: return Read<float>();
      case ACL_DOUBLE: return Read<double>();
      case ACL_FLOAT16: return ascendc_sim::HalfBitsToFloat(Read<uint16_t>());
      case ACL_BF16: return ascendc_sim::Bf16BitsToFloat(Read<uint16_t>());
      case ACL_UINT64: return static_cast<double>(Read<uint64_t>());
      default: return static_cast<double>(ToInt64());
    }
  }
  int64_t ToInt64() const {
    switch (dtype) {
      case ACL_BOOL: return value[0] != 0;
      case ACL_INT8: return Read<int8_t>();
      case ACL_UINT8: return Read<uint8_t>();
      case ACL_INT16: return Read<int16_t>();
      case ACL_UINT16: return Read<uint16_t>();
      case ACL_INT32: return Read<int32_t>();
      case ACL_UINT32: return Read<uint32_t>();
      case ACL_INT64: return Read<int64_t>();
      case ACL_UINT64: return static_cast<int64_t>(Read<uint64_t>());
      case ACL_FLOAT:
      case ACL_DOUBLE:
      case ACL_FLOAT16:
      case ACL_BF16: return static_cast<int64_t>(ToDouble());
      default: return 0;  // complex values are not scalars of this simulator
    }
  }
  bool IsFloating() const { return ascendc_sim::IsFloatingType(dtype); }
  bool IsBool() const { return dtype == ACL_BOOL; }
  bool IsComplex() const { return ascendc_sim::IsComplexType(dtype); }
  // The value as a complex number (a real value has imaginary part 0).
  void ToComplex(double* re, double* im) const {
    if (dtype == ACL_COMPLEX64) {
      *re = Read<float>();
      float part;
      memcpy(&part, value + sizeof(float), sizeof(float));
      *im = part;
    } else if (dtype == ACL_COMPLEX128) {
      *re = Read<double>();
      memcpy(im, value + sizeof(double), sizeof(double));
    } else {
      *re = ToDouble();
      *im = 0.0;
    }
  }

 private:
  template <typename T>
  T Read() const {
    T v;
    memcpy(&v, value, sizeof(T));
    return v;
  }
};

struct aclIntArray {
  std::vector<int64_t> values;
};

struct aclFloatArray {
  std::vector<float> values;
};

struct aclBoolArray {
  std::vector<uint8_t> values;
};

struct aclTensorList {
  std::vector<aclTensor*> tensors;  // owned
};

struct aclScalarList {
  std::vector<aclScalar*> scalars;  // owned
};

// One queued step of an executor: launches kernels on `stream`, reading and
// writing device memory; `workspace` is the caller's workspace (may be null
// when the executor needs none).
using AclnnStep = std::function<aclError(uint8_t* workspace, aclrtStream stream)>;

// What GetWorkspaceSize hands to the launch phase. It owns everything the
// queued kernels need (shapes, strides, scalar values), so the caller may
// destroy its aclTensor/aclScalar objects as soon as the launch returned.
struct aclOpExecutor {
  std::string api;  // "aclnnAdd"
  uint64_t workspaceSize = 0;
  std::vector<AclnnStep> steps;
  // Device pointers the steps use, named for error messages; at launch they
  // must belong to the stream's device.
  std::vector<std::pair<std::string, const void*>> devicePointers;
};

#endif  // ASCENDC_SIM_META_ACL_META_TYPES_H
