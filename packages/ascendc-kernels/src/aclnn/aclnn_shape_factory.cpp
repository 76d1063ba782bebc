// aclnnFlip, aclnnRoll, aclnnEye, aclnnLinspace and aclnnLogSpace.
// Flip and roll move elements without computing on them: self is made a dense
// tile (the l0 view-copy), then view_copy steps read it through reversed strides
// (flip: one copy with negative strides) or copy each block of the rolled
// dimensions to its shifted place (roll: 2^k copies for k rolled dimensions).
// Eye fills out with zeros and view-copies a one along the diagonal (stride m + 1).
// Linspace and logspace run sequence_custom.
#include "aclnnop/aclnn_eye.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_linspace.h"
#include "aclnnop/aclnn_logspace.h"
#include "aclnnop/aclnn_roll.h"

#include <math.h>

#include <algorithm>
#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

aclnnStatus CheckPointers(const char* api, uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  return CheckNotNull(api, executor, "executor");
}

// self and out present, of equal shape and dtype.
aclnnStatus CheckSelfOut(const char* api, const aclTensor* self, const aclTensor* out) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if (out->viewDims != self->viewDims || out->dtype != self->dtype) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out (%s, %s) must have self's shape %s and dtype %s", api,
                      ShapeToString(out->viewDims).c_str(), DataTypeName(out->dtype),
                      ShapeToString(self->viewDims).c_str(), DataTypeName(self->dtype));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus WrapDim(const char* api, const char* what, int64_t* dim, size_t rank) {
  const int64_t r = static_cast<int64_t>(rank == 0 ? 1 : rank);
  if (*dim < -r || *dim >= r) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s %lld is out of range for %zu dimensions", api, what,
                      static_cast<long long>(*dim), rank);
  }
  if (*dim < 0) *dim += r;
  return ACLNN_SUCCESS;
}

std::vector<int64_t> DenseStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t k = shape.size(); k-- > 1;) strides[k - 1] = strides[k] * shape[k];
  return strides;
}

// One view-copy between two dense buffers of `dtype`: `shape` elements read at
// srcOffset + sum(i_k * srcStrides[k]) and written at dstOffset + sum(i_k * dstStrides[k]).
struct BoxCopy {
  std::vector<int64_t> shape, srcStrides, dstStrides;
  int64_t srcOffset = 0, dstOffset = 0;
};

void AddBoxCopy(ExecutorBuilder& plan, const DenseBuffer& x, const DenseBuffer& y, aclDataType dtype,
                const BoxCopy& box) {
  kernels::ViewCopyArgs args;
  args.ndim = static_cast<int32_t>(box.shape.size());
  for (size_t k = 0; k < box.shape.size(); ++k) {
    args.shape[k] = box.shape[k];
    args.src.strides[k] = box.srcStrides[k];
    args.dst.strides[k] = box.dstStrides[k];
  }
  args.src.dtype = args.dst.dtype = dtype;
  args.src.offset = box.srcOffset;
  args.dst.offset = box.dstOffset;
  plan.AddStep([args, x, y](uint8_t* ws, aclrtStream stream) mutable {
    args.src.data = x.Resolve(ws);
    args.dst.data = y.Resolve(ws);
    return kernels::LaunchViewCopy(args, stream);
  });
}

aclnnStatus FlipWorkspace(const aclTensor* self, const aclIntArray* dims, aclTensor* out, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
  const char* api = "aclnnFlip";
  aclnnStatus rc;
  if ((rc = CheckSelfOut(api, self, out)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, dims, "dims")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  const size_t rank = self->viewDims.size();
  std::vector<bool> flipped(std::max<size_t>(rank, 1), false);
  for (int64_t d : dims->values) {
    if ((rc = WrapDim(api, "dim", &d, rank)) != ACLNN_SUCCESS) return rc;
    if (flipped[d]) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %lld appears multiple times in the list of dims", api,
                        static_cast<long long>(d));
    }
    flipped[d] = true;
  }
  ExecutorBuilder plan(api);
  if (self->Numel() > 0) {
    const aclDataType dtype = self->dtype;
    const DenseBuffer x = plan.Input(self, "self", self->viewDims, dtype);
    const DenseBuffer y = plan.Output(out, "out", dtype);
    BoxCopy box;
    box.shape = rank == 0 ? std::vector<int64_t>{1} : self->viewDims;
    box.dstStrides = DenseStrides(box.shape);
    box.srcStrides = box.dstStrides;
    for (size_t k = 0; k < rank; ++k) {
      if (!flipped[k]) continue;
      box.srcOffset += (box.shape[k] - 1) * box.srcStrides[k];
      box.srcStrides[k] = -box.srcStrides[k];
    }
    AddBoxCopy(plan, x, y, dtype, box);
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus RollWorkspace(const aclTensor* self, const aclIntArray* shifts, const aclIntArray* dims, aclTensor* out,
                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnRoll";
  aclnnStatus rc;
  if ((rc = CheckSelfOut(api, self, out)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, shifts, "shifts")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, dims, "dims")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  const size_t rank = self->viewDims.size();
  // The rolled view: self flattened when dims is empty.
  std::vector<int64_t> shape = self->viewDims;
  std::vector<int64_t> shift;
  if (dims->values.empty()) {
    if (shifts->values.size() != 1) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: shifts must have one element when dims is empty, got %zu",
                        api, shifts->values.size());
    }
    shape = {self->Numel()};
    shift = {shifts->values[0]};
  } else {
    if (shifts->values.size() != dims->values.size()) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: shifts (%zu) and dims (%zu) must have the same length", api,
                        shifts->values.size(), dims->values.size());
    }
    if (rank == 0) shape = {1};
    shift.assign(shape.size(), 0);
    for (size_t k = 0; k < dims->values.size(); ++k) {
      int64_t d = dims->values[k];
      if ((rc = WrapDim(api, "dim", &d, rank)) != ACLNN_SUCCESS) return rc;
      shift[d] += shifts->values[k] % std::max<int64_t>(shape[d], 1);
    }
  }
  ExecutorBuilder plan(api);
  if (self->Numel() > 0) {
    const aclDataType dtype = self->dtype;
    const DenseBuffer x = plan.Input(self, "self", self->viewDims, dtype);
    const DenseBuffer y = plan.Output(out, "out", dtype);
    const std::vector<int64_t> strides = DenseStrides(shape);
    // The rolled dimensions, each shift in [0, size).
    std::vector<size_t> rolled;
    for (size_t k = 0; k < shape.size(); ++k) {
      shift[k] = ((shift[k] % shape[k]) + shape[k]) % shape[k];
      if (shift[k] != 0) rolled.push_back(k);
    }
    // Along a rolled dimension of size n and shift s: out[s, n) <- self[0, n - s) and
    // out[0, s) <- self[n - s, n); every combination of those halves is one box.
    for (uint32_t mask = 0; mask < (1u << rolled.size()); ++mask) {
      BoxCopy box;
      box.shape = shape;
      box.srcStrides = box.dstStrides = strides;
      for (size_t r = 0; r < rolled.size(); ++r) {
        const size_t k = rolled[r];
        const int64_t n = shape[k], s = shift[k];
        if ((mask >> r) & 1u) {
          box.shape[k] = s;
          box.srcOffset += (n - s) * strides[k];
        } else {
          box.shape[k] = n - s;
          box.dstOffset += s * strides[k];
        }
      }
      AddBoxCopy(plan, x, y, dtype, box);
    }
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus EyeWorkspace(int64_t n, int64_t m, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnEye";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if (n < 0 || m < 0) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: n and m must be non-negative, got %lld and %lld", api,
                      static_cast<long long>(n), static_cast<long long>(m));
  }
  if (out->viewDims != std::vector<int64_t>{n, m}) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has shape %s, expected [%lld, %lld]", api,
                      ShapeToString(out->viewDims).c_str(), static_cast<long long>(n), static_cast<long long>(m));
  }
  ExecutorBuilder plan(api);
  if (n > 0 && m > 0) {
    const aclDataType dtype = out->dtype;
    const DenseBuffer y = plan.Output(out, "out", dtype);
    const DenseBuffer one = plan.Scratch(1, dtype);
    const uint64_t total = static_cast<uint64_t>(n * m);
    plan.AddStep([y, one, dtype, total](uint8_t* ws, aclrtStream stream) {
      aclError err = kernels::LaunchFill(dtype, y.Resolve(ws), total, kernels::ScalarValue::Integral(0), stream);
      if (err != ACL_SUCCESS) return err;
      return kernels::LaunchFill(dtype, one.Resolve(ws), 1, kernels::ScalarValue::Integral(1), stream);
    });
    BoxCopy diagonal;
    diagonal.shape = {std::min(n, m)};
    diagonal.srcStrides = {0};
    diagonal.dstStrides = {m + 1};
    AddBoxCopy(plan, one, y, dtype, diagonal);
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus SequenceWorkspace(const char* api, const aclScalar* start, const aclScalar* end, int64_t steps, bool log,
                              double base, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, start, "start")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, end, "end")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kNumericDtypes)) != ACLNN_SUCCESS) return rc;
  if (steps < 0) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: number of steps must be non-negative, got %lld", api,
                      static_cast<long long>(steps));
  }
  if (out->viewDims.size() != 1 || out->viewDims[0] != steps) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has shape %s, expected [%lld]", api,
                      ShapeToString(out->viewDims).c_str(), static_cast<long long>(steps));
  }
  ExecutorBuilder plan(api);
  if (steps > 0) {
    const aclDataType dtype = out->dtype;
    const DenseBuffer y = plan.Output(out, "out", dtype);
    const double s = start->ToDouble(), e = end->ToDouble();
    plan.AddStep([y, dtype, steps, s, e, log, base](uint8_t* ws, aclrtStream stream) {
      return kernels::LaunchSequence(dtype, y.Resolve(ws), steps, s, e, log, base, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

using namespace ascendc_sim::aclnn;

extern "C" {

aclnnStatus aclnnFlipGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return FlipWorkspace(self, dims, out, workspaceSize, executor);
}

aclnnStatus aclnnFlip(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnFlip", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor* self, const aclIntArray* shifts, const aclIntArray* dims,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return RollWorkspace(self, shifts, dims, out, workspaceSize, executor);
}

aclnnStatus aclnnRoll(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnRoll", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnEyeGetWorkspaceSize(int64_t n, int64_t m, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  return EyeWorkspace(n, m, out, workspaceSize, executor);
}

aclnnStatus aclnnEye(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnEye", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnLinspaceGetWorkspaceSize(const aclScalar* start, const aclScalar* end, int64_t steps, aclTensor* out,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return SequenceWorkspace("aclnnLinspace", start, end, steps, false, 10.0, out, workspaceSize, executor);
}

aclnnStatus aclnnLinspace(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnLinspace", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnLogSpaceGetWorkspaceSize(const aclScalar* start, const aclScalar* end, int64_t steps, double base,
                                          aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return SequenceWorkspace("aclnnLogSpace", start, end, steps, true, base, out, workspaceSize, executor);
}

aclnnStatus aclnnLogSpace(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnLogSpace", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
