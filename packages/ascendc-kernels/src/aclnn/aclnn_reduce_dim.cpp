// The dimension reductions beyond sum/mean/amax/amin (variance and standard deviation,
// product, any, arg-extremes, extremes with indices, min-max, norms, nansum, equal,
// trace), the scans (cumsum, cumprod, cummax, cummin, logcumsumexp) and the sorts
// (sort, topk, kthvalue, median, nanmedian). The reduced (or scanned, or sorted)
// dimensions are moved innermost: a permuted view of self, made dense in the compute
// type (float32 for float32, float16 and bfloat16; double; int64 for integers and
// bool) by the input view-copy; a row kernel of reduce_dim_api.h computes per row; the
// outputs are written back into their tensors (permuted the same way when they keep
// self's shape) by the output view-copy, converted to their dtype.
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_equal.h"
#include "aclnnop/aclnn_extremes.h"
#include "aclnnop/aclnn_median.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_renorm.h"
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_var.h"

#include <math.h>

#include <algorithm>
#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/reduce_dim_api.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

using kernels::DimReduceArgs;
using kernels::DimReduceOp;

const std::initializer_list<aclDataType> kFloatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
const std::initializer_list<aclDataType> kBoolOut = {ACL_BOOL, ACL_UINT8};
const std::initializer_list<aclDataType> kIndexOut = {ACL_INT64};

aclDataType ComputeTypeOf(aclDataType t) { return kernels::DimReduceComputeType(t); }

// self with its reduced dimensions moved innermost: rows (kept) x cols (reduced).
struct Reduced {
  aclTensor view;
  uint64_t rows = 1, cols = 1;
  std::vector<int64_t> outShape;   // the reduction's result (size 1 for reduced dims when keepdim)
  std::vector<size_t> order;       // view dimension i is self's order[i]
};

aclnnStatus CheckCommon(const char* api, const void* self, const uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  return CheckNotNull(api, executor, "executor");
}

// `dims` (negative ones wrapped; a 0-d self takes 0 and -1) reduced, all of them when
// `allDims`. A dimension out of range or named twice is ACLNN_ERR_PARAM_INVALID.
aclnnStatus PlanDims(const char* api, const aclTensor* self, const std::vector<int64_t>& dims, bool allDims,
                     bool keepdim, Reduced* r) {
  const int64_t rank = static_cast<int64_t>(self->viewDims.size());
  std::vector<bool> reduced(static_cast<size_t>(rank), allDims);
  std::vector<bool> named(static_cast<size_t>(rank), false);
  if (!allDims) {
    for (int64_t d : dims) {
      const int64_t span = rank == 0 ? 1 : rank;
      if (d < -span || d >= span) {
        return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %lld is out of range for a %lld-D self", api,
                          static_cast<long long>(d), static_cast<long long>(rank));
      }
      if (rank == 0) continue;
      const size_t k = static_cast<size_t>(d < 0 ? d + rank : d);
      if (named[k]) return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %zu appears more than once", api, k);
      named[k] = reduced[k] = true;
    }
  }
  r->view = *self;
  r->view.viewDims.clear();
  r->view.strides.clear();
  r->rows = r->cols = 1;
  r->outShape.clear();
  r->order.clear();
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t k = 0; k < static_cast<size_t>(rank); ++k) {
      if (reduced[k] != (pass == 1)) continue;
      r->view.viewDims.push_back(self->viewDims[k]);
      r->view.strides.push_back(self->strides[k]);
      r->order.push_back(k);
      (pass == 0 ? r->rows : r->cols) *= static_cast<uint64_t>(self->viewDims[k]);
    }
  }
  for (size_t k = 0; k < static_cast<size_t>(rank); ++k) {
    if (!reduced[k]) {
      r->outShape.push_back(self->viewDims[k]);
    } else if (keepdim) {
      r->outShape.push_back(1);
    }
  }
  return ACLNN_SUCCESS;
}

// `t` viewed in the order of `r` (the dimensions of a tensor shaped like self).
aclTensor Permuted(const aclTensor* t, const Reduced& r) {
  aclTensor v = *t;
  v.viewDims.clear();
  v.strides.clear();
  for (size_t k : r.order) {
    v.viewDims.push_back(t->viewDims[k]);
    v.strides.push_back(t->strides[k]);
  }
  return v;
}

aclnnStatus CheckOut(const char* api, const aclTensor* out, const char* name, const std::vector<int64_t>& shape,
                     std::initializer_list<aclDataType> dtypes) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, out, name)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, name, dtypes)) != ACLNN_SUCCESS) return rc;
  if (out->viewDims != shape) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape %s, expected %s", api, name,
                      ShapeToString(out->viewDims).c_str(), ShapeToString(shape).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckSameDtype(const char* api, const aclTensor* out, const char* name, aclDataType expected) {
  if (out->dtype == expected) return ACLNN_SUCCESS;
  return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, expected %s", api, name,
                    DataTypeName(out->dtype), DataTypeName(expected));
}

// One launch of the row kernel; y0/y1 (may be null) receive the kernel's outputs of
// dtypes y0Type/y1Type.
aclnnStatus RunReduce(const char* api, const Reduced& r, DimReduceArgs args, const aclTensor* y0, const char* n0,
                      aclDataType y0Type, const aclTensor* y1, const char* n1, aclDataType y1Type,
                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  ExecutorBuilder plan(api);
  if (r.rows > 0) {
    DenseBuffer x, b0, b1;
    const bool hasX = r.cols > 0;
    if (hasX) x = plan.Input(&r.view, "self", r.view.viewDims, args.dtype);
    if (y0 != nullptr) b0 = plan.Output(y0, n0, y0Type);
    if (y1 != nullptr) b1 = plan.Output(y1, n1, y1Type);
    args.rows = r.rows;
    args.cols = r.cols;
    const bool has0 = y0 != nullptr, has1 = y1 != nullptr;
    plan.AddStep([args, x, b0, b1, hasX, has0, has1](uint8_t* ws, aclrtStream stream) {
      DimReduceArgs a = args;
      a.x = hasX ? x.Resolve(ws) : nullptr;
      a.y0 = has0 ? b0.Resolve(ws) : nullptr;
      a.y1 = has1 ? b1.Resolve(ws) : nullptr;
      return kernels::LaunchDimReduce(a, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

std::vector<int64_t> DimsOf(const aclIntArray* dims) { return dims == nullptr ? std::vector<int64_t>{} : dims->values; }

// ---- variance and standard deviation ----

aclnnStatus VarLike(const char* api, const aclTensor* self, const aclIntArray* dim, double correction, bool keepdim,
                    bool takeSqrt, aclTensor* out, const char* outName, aclTensor* mean, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckCommon(api, self, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kFloatDtypes)) != ACLNN_SUCCESS) return rc;
  Reduced r;
  const std::vector<int64_t> dims = DimsOf(dim);
  if ((rc = PlanDims(api, self, dims, dims.empty(), keepdim, &r)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOut(api, out, outName, r.outShape, kFloatDtypes)) != ACLNN_SUCCESS) return rc;
  if (mean != nullptr && (rc = CheckOut(api, mean, "meanOut", r.outShape, kFloatDtypes)) != ACLNN_SUCCESS) return rc;
  DimReduceArgs args;
  args.op = DimReduceOp::kVar;
  args.dtype = ComputeTypeOf(self->dtype);
  args.correction = correction;
  args.takeSqrt = takeSqrt;
  return RunReduce(api, r, args, out, outName, args.dtype, mean, "meanOut", args.dtype, workspaceSize, executor);
}

// ---- extremes ----

// One dimension `dim` of self (0-d: 0 or -1), for the apis taking an int64 dim.
aclnnStatus PlanOneDim(const char* api, const aclTensor* self, int64_t dim, bool keepdim, Reduced* r) {
  return PlanDims(api, self, {dim}, false, keepdim, r);
}

aclnnStatus CheckNotEmpty(const char* api, const Reduced& r) {
  if (r.cols == 0 && r.rows > 0) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: cannot reduce over a dimension of size 0", api);
  }
  if (r.cols == 0 && r.outShape.empty()) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self has no elements", api);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus ArgExtreme(const char* api, bool isMax, const aclTensor* self, int64_t dim, bool keepdim,
                       aclTensor* values, aclTensor* indices, uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckCommon(api, self, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  Reduced r;
  if ((rc = PlanOneDim(api, self, dim, keepdim, &r)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotEmpty(api, r)) != ACLNN_SUCCESS) return rc;
  if (values != nullptr) {
    if ((rc = CheckOut(api, values, "out", r.outShape, kAllDtypes)) != ACLNN_SUCCESS) return rc;
    if ((rc = CheckSameDtype(api, values, "out", self->dtype)) != ACLNN_SUCCESS) return rc;
  }
  if ((rc = CheckOut(api, indices, "indices", r.outShape, kIndexOut)) != ACLNN_SUCCESS) return rc;
  DimReduceArgs args;
  args.op = isMax ? DimReduceOp::kArgMax : DimReduceOp::kArgMin;
  args.dtype = ComputeTypeOf(self->dtype);
  return RunReduce(api, r, args, values, "out", args.dtype, indices, "indices", ACL_INT64, workspaceSize, executor);
}

aclnnStatus MinMax(const char* api, const aclTensor* self, const std::vector<int64_t>& dims, bool allDims,
                   bool keepdim, aclTensor* minOut, aclTensor* maxOut, uint64_t* workspaceSize,
                   aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckCommon(api, self, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  Reduced r;
  if ((rc = PlanDims(api, self, dims, allDims, keepdim, &r)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotEmpty(api, r)) != ACLNN_SUCCESS) return rc;
  if (minOut != nullptr) {
    if ((rc = CheckOut(api, minOut, "minOut", r.outShape, kAllDtypes)) != ACLNN_SUCCESS) return rc;
    if ((rc = CheckSameDtype(api, minOut, "minOut", self->dtype)) != ACLNN_SUCCESS) return rc;
  }
  if (maxOut != nullptr) {
    if ((rc = CheckOut(api, maxOut, "maxOut", r.outShape, kAllDtypes)) != ACLNN_SUCCESS) return rc;
    if ((rc = CheckSameDtype(api, maxOut, "maxOut", self->dtype)) != ACLNN_SUCCESS) return rc;
  }
  DimReduceArgs args;
  args.op = DimReduceOp::kMinMax;
  args.dtype = ComputeTypeOf(self->dtype);
  return RunReduce(api, r, args, minOut, "minOut", args.dtype, maxOut, "maxOut", args.dtype, workspaceSize, executor);
}

// ---- sums, products, counts, norms ----

aclnnStatus SumLike(const char* api, DimReduceOp op, const aclTensor* self, const std::vector<int64_t>& dims,
                    bool allDims, bool keepdim, aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor, double p = 2.0) {
  aclnnStatus rc;
  if ((rc = CheckCommon(api, self, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  const bool norm = op == DimReduceOp::kNorm;
  if ((rc = CheckTensor(api, self, "self", norm ? kFloatDtypes : kAllDtypes)) != ACLNN_SUCCESS) return rc;
  Reduced r;
  if ((rc = PlanDims(api, self, dims, allDims, keepdim, &r)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOut(api, out, "out", r.outShape, norm ? kFloatDtypes : kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckSameDtype(api, out, "out", dtype)) != ACLNN_SUCCESS) return rc;
  DimReduceArgs args;
  args.op = op;
  args.dtype = ComputeTypeOf(dtype);
  args.p = p;
  return RunReduce(api, r, args, out, "out", args.dtype, nullptr, nullptr, ACL_INT64, workspaceSize, executor);
}

aclnnStatus AnyWorkspace(const aclTensor* self, const aclIntArray* dim, bool keepdim, aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnAny";
  aclnnStatus rc;
  if ((rc = CheckCommon(api, self, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, dim, "dim")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  Reduced r;
  if ((rc = PlanDims(api, self, dim->values, dim->values.empty(), keepdim, &r)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOut(api, out, "out", r.outShape, kBoolOut)) != ACLNN_SUCCESS) return rc;
  DimReduceArgs args;
  args.op = DimReduceOp::kAny;
  args.dtype = ComputeTypeOf(self->dtype);
  return RunReduce(api, r, args, out, "out", ACL_INT64, nullptr, nullptr, ACL_INT64, workspaceSize, executor);
}

// ---- scans ----

aclnnStatus ScanWorkspace(const char* api, kernels::ScanOp op, const aclTensor* self, int64_t dim, aclDataType dtype,
                          aclTensor* out, aclTensor* indices, uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckCommon(api, self, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  const bool logExp = op == kernels::ScanOp::kLogCumSumExp;
  if ((rc = CheckTensor(api, self, "self", logExp ? kFloatDtypes : kAllDtypes)) != ACLNN_SUCCESS) return rc;
  Reduced r;
  if ((rc = PlanOneDim(api, self, dim, true, &r)) != ACLNN_SUCCESS) return rc;
  const char* outName = indices != nullptr ? "values" : "out";
  if ((rc = CheckOut(api, out, outName, self->viewDims, kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckSameDtype(api, out, outName, dtype)) != ACLNN_SUCCESS) return rc;
  if (indices != nullptr && (rc = CheckOut(api, indices, "indices", self->viewDims, kIndexOut)) != ACLNN_SUCCESS) {
    return rc;
  }
  const aclDataType compute = ComputeTypeOf(dtype);
  const aclTensor outView = Permuted(out, r);
  aclTensor idxView;
  if (indices != nullptr) idxView = Permuted(indices, r);
  ExecutorBuilder plan(api);
  if (r.rows * r.cols > 0) {
    const DenseBuffer x = plan.Input(&r.view, "self", r.view.viewDims, compute);
    const DenseBuffer y = plan.Output(&outView, outName, compute);
    DenseBuffer idx;
    const bool hasIdx = indices != nullptr;
    if (hasIdx) idx = plan.Output(&idxView, "indices", ACL_INT64);
    kernels::ScanArgs args;
    args.op = op;
    args.dtype = compute;
    args.rows = r.rows;
    args.cols = r.cols;
    plan.AddStep([args, x, y, idx, hasIdx](uint8_t* ws, aclrtStream stream) {
      kernels::ScanArgs a = args;
      a.x = x.Resolve(ws);
      a.y = y.Resolve(ws);
      a.idx = hasIdx ? idx.Resolve(ws) : nullptr;
      return kernels::LaunchScan(a, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

// ---- sorts ----

// Sorts along `dim` (rows: the other dimensions) and writes what `select` picks into
// values/indices; `selectShape`: their shape (self's with dim -> k for kSort, the
// reduction's otherwise).
aclnnStatus SortWorkspace(const char* api, kernels::SortSelect select, const aclTensor* self,
                          const std::vector<int64_t>& dims, bool allDims, bool keepdim, uint64_t k, bool descending,
                          bool stable, aclTensor* values, aclTensor* indices, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckCommon(api, self, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  Reduced r;
  const bool sort = select == kernels::SortSelect::kSort || select == kernels::SortSelect::kTopk;
  if ((rc = PlanDims(api, self, dims, allDims, sort || keepdim, &r)) != ACLNN_SUCCESS) return rc;
  std::vector<int64_t> shape = r.outShape;
  if (sort) {
    shape = self->viewDims;
    if (!shape.empty()) shape[r.order.back()] = static_cast<int64_t>(k);
    if (k > r.cols) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: k = %llu is larger than the %llu elements of the dimension",
                        api, static_cast<unsigned long long>(k), static_cast<unsigned long long>(r.cols));
    }
  } else if (select == kernels::SortSelect::kKth) {
    if (k < 1 || k > std::max<uint64_t>(r.cols, 1)) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: k = %llu is out of range for a dimension of %llu elements",
                        api, static_cast<unsigned long long>(k), static_cast<unsigned long long>(r.cols));
    }
  }
  if (!sort && (rc = CheckNotEmpty(api, r)) != ACLNN_SUCCESS) return rc;
  const char* valuesName = indices != nullptr ? "values" : "out";
  if (values != nullptr) {
    if ((rc = CheckOut(api, values, valuesName, shape, kAllDtypes)) != ACLNN_SUCCESS) return rc;
    if ((rc = CheckSameDtype(api, values, valuesName, self->dtype)) != ACLNN_SUCCESS) return rc;
  }
  if (indices != nullptr && (rc = CheckOut(api, indices, "indices", shape, kIndexOut)) != ACLNN_SUCCESS) return rc;
  const aclDataType compute = ComputeTypeOf(self->dtype);
  aclTensor valuesView, indicesView;
  if (sort && values != nullptr) valuesView = Permuted(values, r);
  if (sort && indices != nullptr) indicesView = Permuted(indices, r);
  const aclTensor* v = sort ? &valuesView : values;
  const aclTensor* i = sort ? &indicesView : indices;
  ExecutorBuilder plan(api);
  if (r.rows * r.cols > 0 && (!sort || k > 0)) {
    const DenseBuffer x = plan.Input(&r.view, "self", r.view.viewDims, compute);
    DenseBuffer vb, ib;
    const bool hasV = values != nullptr, hasI = indices != nullptr;
    if (hasV) vb = plan.Output(v, valuesName, compute);
    if (hasI) ib = plan.Output(i, "indices", ACL_INT64);
    kernels::SortArgs args;
    args.select = select;
    args.dtype = compute;
    args.rows = r.rows;
    args.cols = r.cols;
    args.k = k;
    args.descending = descending;
    args.stable = stable;
    args.wholeTensor = allDims;
    plan.AddStep([args, x, vb, ib, hasV, hasI](uint8_t* ws, aclrtStream stream) {
      kernels::SortArgs a = args;
      a.x = x.Resolve(ws);
      a.values = hasV ? vb.Resolve(ws) : nullptr;
      a.indices = hasI ? ib.Resolve(ws) : nullptr;
      return kernels::LaunchSort(a, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

using namespace ascendc_sim::aclnn;
using ascendc_sim::kernels::DimReduceOp;
using ascendc_sim::kernels::ScanOp;
using ascendc_sim::kernels::SortSelect;
using ascendc_sim::RaiseError;
using ascendc_sim::ShapeToString;

#define ASCENDC_SIM_ACLNN_LAUNCH(Name)                                                                   \
  aclnnStatus Name(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) { \
    return ascendc_sim::LaunchExecutor(#Name, workspace, workspaceSize, executor, stream);              \
  }

extern "C" {

// ---- var / std ----
aclnnStatus aclnnVarGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool unbiased, bool keepdim,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return VarLike("aclnnVar", self, dim, unbiased ? 1.0 : 0.0, keepdim, false, out, "out", nullptr, workspaceSize,
                 executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnVar)

aclnnStatus aclnnVarCorrectionGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, int64_t correction,
                                               bool keepdim, aclTensor* out, uint64_t* workspaceSize,
                                               aclOpExecutor** executor) {
  return VarLike("aclnnVarCorrection", self, dim, static_cast<double>(correction), keepdim, false, out, "out",
                 nullptr, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnVarCorrection)

aclnnStatus aclnnVarMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, int64_t correction,
                                         bool keepdim, aclTensor* varOut, aclTensor* meanOut,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (meanOut == nullptr) return CheckNotNull("aclnnVarMean", meanOut, "meanOut");
  return VarLike("aclnnVarMean", self, dim, static_cast<double>(correction), keepdim, false, varOut, "varOut",
                 meanOut, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnVarMean)

aclnnStatus aclnnStdGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, int64_t correction, bool keepdim,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return VarLike("aclnnStd", self, dim, static_cast<double>(correction), keepdim, true, out, "out", nullptr,
                 workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnStd)

aclnnStatus aclnnStdMeanCorrectionGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, int64_t correction,
                                                   bool keepdim, aclTensor* stdOut, aclTensor* meanOut,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (meanOut == nullptr) return CheckNotNull("aclnnStdMeanCorrection", meanOut, "meanOut");
  return VarLike("aclnnStdMeanCorrection", self, dim, static_cast<double>(correction), keepdim, true, stdOut,
                 "stdOut", meanOut, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnStdMeanCorrection)

// ---- prod ----
aclnnStatus aclnnProdGetWorkspaceSize(const aclTensor* self, aclDataType dtype, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return SumLike("aclnnProd", DimReduceOp::kProd, self, {}, true, false, dtype, out, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnProd)

aclnnStatus aclnnProdDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclDataType dtype,
                                         aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return SumLike("aclnnProdDim", DimReduceOp::kProd, self, {dim}, false, keepdim, dtype, out, workspaceSize,
                 executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnProdDim)

// ---- any ----
aclnnStatus aclnnAnyGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return AnyWorkspace(self, dim, keepdim, out, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnAny)

// ---- arg-extremes, extremes ----
aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ArgExtreme("aclnnArgMax", true, self, dim, keepdim, nullptr, out, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnArgMax)

aclnnStatus aclnnArgMinGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ArgExtreme("aclnnArgMin", false, self, dim, keepdim, nullptr, out, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnArgMin)

aclnnStatus aclnnMaxDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out,
                                        aclTensor* indices, uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (out == nullptr) return CheckNotNull("aclnnMaxDim", out, "out");
  return ArgExtreme("aclnnMaxDim", true, self, dim, keepdim, out, indices, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnMaxDim)

aclnnStatus aclnnMinDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out,
                                        aclTensor* indices, uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (out == nullptr) return CheckNotNull("aclnnMinDim", out, "out");
  return ArgExtreme("aclnnMinDim", false, self, dim, keepdim, out, indices, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnMinDim)

aclnnStatus aclnnMaxGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  if (out == nullptr) return CheckNotNull("aclnnMax", out, "out");
  return MinMax("aclnnMax", self, {}, true, false, nullptr, out, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnMax)

aclnnStatus aclnnMinGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  if (out == nullptr) return CheckNotNull("aclnnMin", out, "out");
  return MinMax("aclnnMin", self, {}, true, false, out, nullptr, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnMin)

aclnnStatus aclnnAminmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim,
                                         aclTensor* minOut, aclTensor* maxOut, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  if (dim == nullptr) return CheckNotNull("aclnnAminmax", dim, "dim");
  if (minOut == nullptr) return CheckNotNull("aclnnAminmax", minOut, "minOut");
  if (maxOut == nullptr) return CheckNotNull("aclnnAminmax", maxOut, "maxOut");
  return MinMax("aclnnAminmax", self, dim->values, dim->values.empty(), keepdim, minOut, maxOut, workspaceSize,
                executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnAminmax)

aclnnStatus aclnnAminmaxAllGetWorkspaceSize(const aclTensor* self, aclTensor* minOut, aclTensor* maxOut,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (minOut == nullptr) return CheckNotNull("aclnnAminmaxAll", minOut, "minOut");
  if (maxOut == nullptr) return CheckNotNull("aclnnAminmaxAll", maxOut, "maxOut");
  return MinMax("aclnnAminmaxAll", self, {}, true, false, minOut, maxOut, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnAminmaxAll)

aclnnStatus aclnnAminmaxDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* minOut,
                                            aclTensor* maxOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (minOut == nullptr) return CheckNotNull("aclnnAminmaxDim", minOut, "minOut");
  if (maxOut == nullptr) return CheckNotNull("aclnnAminmaxDim", maxOut, "maxOut");
  return MinMax("aclnnAminmaxDim", self, {dim}, false, keepdim, minOut, maxOut, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnAminmaxDim)

// ---- norms, nansum, trace, equal ----
aclnnStatus aclnnNormGetWorkspaceSize(const aclTensor* self, const aclScalar* pScalar, const aclIntArray* dim,
                                      bool keepdim, aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  if (pScalar == nullptr) return CheckNotNull("aclnnNorm", pScalar, "pScalar");
  if (dim == nullptr) return CheckNotNull("aclnnNorm", dim, "dim");
  if (out == nullptr) return CheckNotNull("aclnnNorm", out, "out");
  return SumLike("aclnnNorm", DimReduceOp::kNorm, self, dim->values, dim->values.empty(), keepdim, out->dtype, out,
                 workspaceSize, executor, pScalar->ToDouble());
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnNorm)

aclnnStatus aclnnLinalgVectorNormGetWorkspaceSize(const aclTensor* self, const aclScalar* ord, const aclIntArray* dims,
                                                  bool keepdim, aclDataType dtype, aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (ord == nullptr) return CheckNotNull("aclnnLinalgVectorNorm", ord, "ord");
  if (dims == nullptr) return CheckNotNull("aclnnLinalgVectorNorm", dims, "dims");
  return SumLike("aclnnLinalgVectorNorm", DimReduceOp::kNorm, self, dims->values, dims->values.empty(), keepdim,
                 dtype, out, workspaceSize, executor, ord->ToDouble());
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnLinalgVectorNorm)

aclnnStatus aclnnReduceNansumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim,
                                              aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  if (dim == nullptr) return CheckNotNull("aclnnReduceNansum", dim, "dim");
  return SumLike("aclnnReduceNansum", DimReduceOp::kNanSum, self, dim->values, dim->values.empty(), keepdim, dtype,
                 out, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnReduceNansum)

aclnnStatus aclnnTraceGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                       aclOpExecutor** executor) {
  const char* api = "aclnnTrace";
  aclnnStatus rc;
  if ((rc = CheckCommon(api, self, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if (self->viewDims.size() != 2) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self must be a matrix, got %zu dimensions", api,
                      self->viewDims.size());
  }
  if ((rc = CheckOut(api, out, "out", {}, kAllDtypes)) != ACLNN_SUCCESS) return rc;
  // The diagonal: one row of min(m, n) elements, a step of both strides.
  Reduced r;
  r.view = *self;
  r.view.viewDims = {std::min(self->viewDims[0], self->viewDims[1])};
  r.view.strides = {self->strides[0] + self->strides[1]};
  r.rows = 1;
  r.cols = static_cast<uint64_t>(r.view.viewDims[0]);
  DimReduceArgs args;
  args.op = DimReduceOp::kSum;
  args.dtype = ComputeTypeOf(out->dtype);
  return RunReduce(api, r, args, out, "out", args.dtype, nullptr, nullptr, ACL_INT64, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnTrace)

aclnnStatus aclnnEqualGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnEqual";
  aclnnStatus rc;
  if ((rc = CheckCommon(api, self, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, other, "other")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, other, "other", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", {ACL_BOOL})) != ACLNN_SUCCESS) return rc;
  if (out->Numel() != 1) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out must hold one element, it has shape %s", api,
                      ShapeToString(out->viewDims).c_str());
  }
  ExecutorBuilder plan(api);
  const DenseBuffer y = plan.Output(out, "out", ACL_INT64);
  if (self->viewDims != other->viewDims) {
    plan.AddStep([y](uint8_t* ws, aclrtStream stream) {
      return ascendc_sim::kernels::LaunchFill(ACL_INT64, y.Resolve(ws), 1,
                                              ascendc_sim::kernels::ScalarValue::Integral(0), stream);
    });
    return plan.Finish(workspaceSize, executor);
  }
  const uint64_t n = static_cast<uint64_t>(self->Numel());
  if (n == 0) {
    plan.AddStep([y](uint8_t* ws, aclrtStream stream) {
      return ascendc_sim::kernels::LaunchFill(ACL_INT64, y.Resolve(ws), 1,
                                              ascendc_sim::kernels::ScalarValue::Integral(1), stream);
    });
    return plan.Finish(workspaceSize, executor);
  }
  // Compared in the wider of the two compute types (an integer against a float: as floats).
  aclDataType compute = ComputeTypeOf(self->dtype);
  const aclDataType otherCompute = ComputeTypeOf(other->dtype);
  if (compute != otherCompute) compute = (compute == ACL_DOUBLE || otherCompute == ACL_DOUBLE) ? ACL_DOUBLE : ACL_FLOAT;
  const DenseBuffer a = plan.InputReshaped(self, "self", {static_cast<int64_t>(n)}, compute);
  const DenseBuffer b = plan.InputReshaped(other, "other", {static_cast<int64_t>(n)}, compute);
  DimReduceArgs args;
  args.op = DimReduceOp::kEqual;
  args.dtype = compute;
  args.rows = 1;
  args.cols = n;
  plan.AddStep([args, a, b, y](uint8_t* ws, aclrtStream stream) {
    DimReduceArgs run = args;
    run.x = a.Resolve(ws);
    run.x2 = b.Resolve(ws);
    run.y0 = y.Resolve(ws);
    return ascendc_sim::kernels::LaunchDimReduce(run, stream);
  });
  return plan.Finish(workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnEqual)

// ---- renorm ----
aclnnStatus aclnnRenormGetWorkspaceSize(const aclTensor* self, const aclScalar* p, int64_t dim, const aclScalar* maxNorm,
                                        aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnRenorm";
  aclnnStatus rc;
  if ((rc = CheckCommon(api, self, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, p, "p")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, maxNorm, "maxNorm")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kFloatDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckOut(api, out, "out", self->viewDims, kFloatDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckSameDtype(api, out, "out", self->dtype)) != ACLNN_SUCCESS) return rc;
  const double pv = p->ToDouble(), maxnorm = maxNorm->ToDouble();
  if (!(pv > 0)) return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: p = %g is not positive", api, pv);
  if (!(maxnorm >= 0)) return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: maxNorm = %g is negative", api, maxnorm);
  const int64_t rank = static_cast<int64_t>(self->viewDims.size());
  if (dim < -std::max<int64_t>(rank, 1) || dim >= std::max<int64_t>(rank, 1)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %lld is out of range for a %lld-D self", api,
                      static_cast<long long>(dim), static_cast<long long>(rank));
  }
  // Rows: the slices along dim (kept), their elements the other dimensions (reduced).
  std::vector<int64_t> others;
  const int64_t wrapped = rank == 0 ? 0 : (dim < 0 ? dim + rank : dim);
  for (int64_t d = 0; d < rank; ++d) {
    if (d != wrapped) others.push_back(d);
  }
  Reduced r;
  if ((rc = PlanDims(api, self, others, false, true, &r)) != ACLNN_SUCCESS) return rc;
  const aclTensor outView = Permuted(out, r);
  const aclDataType compute = ComputeTypeOf(self->dtype);
  ExecutorBuilder plan(api);
  if (r.rows * r.cols > 0) {
    const DenseBuffer x = plan.Input(&r.view, "self", r.view.viewDims, compute);
    const DenseBuffer y = plan.Output(&outView, "out", compute);
    DimReduceArgs args;
    args.op = DimReduceOp::kRenorm;
    args.dtype = compute;
    args.rows = r.rows;
    args.cols = r.cols;
    args.p = pv;
    args.maxnorm = maxnorm;
    plan.AddStep([args, x, y](uint8_t* ws, aclrtStream stream) {
      DimReduceArgs a = args;
      a.x = x.Resolve(ws);
      a.y0 = y.Resolve(ws);
      return ascendc_sim::kernels::LaunchDimReduce(a, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnRenorm)

// ---- scans ----
aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor* self, int64_t dim, aclDataType dtype, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ScanWorkspace("aclnnCumsum", ScanOp::kCumSum, self, dim, dtype, out, nullptr, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnCumsum)

aclnnStatus aclnnCumprodGetWorkspaceSize(const aclTensor* self, const aclScalar* dim, aclDataType dtype,
                                         aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (dim == nullptr) return CheckNotNull("aclnnCumprod", dim, "dim");
  return ScanWorkspace("aclnnCumprod", ScanOp::kCumProd, self, dim->ToInt64(), dtype, out, nullptr, workspaceSize,
                       executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnCumprod)

aclnnStatus aclnnCummaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* values, aclTensor* indices,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (self == nullptr) return CheckNotNull("aclnnCummax", self, "self");
  if (indices == nullptr) return CheckNotNull("aclnnCummax", indices, "indices");
  return ScanWorkspace("aclnnCummax", ScanOp::kCumMax, self, dim, self->dtype, values, indices, workspaceSize,
                       executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnCummax)

aclnnStatus aclnnCumminGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* values, aclTensor* indices,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (self == nullptr) return CheckNotNull("aclnnCummin", self, "self");
  if (indices == nullptr) return CheckNotNull("aclnnCummin", indices, "indices");
  return ScanWorkspace("aclnnCummin", ScanOp::kCumMin, self, dim, self->dtype, values, indices, workspaceSize,
                       executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnCummin)

aclnnStatus aclnnLogCumsumExpGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (self == nullptr) return CheckNotNull("aclnnLogCumsumExp", self, "self");
  return ScanWorkspace("aclnnLogCumsumExp", ScanOp::kLogCumSumExp, self, dim, self->dtype, out, nullptr,
                       workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnLogCumsumExp)

// ---- sorts ----
aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor* self, bool stable, int64_t dim, bool descending,
                                      aclTensor* values, aclTensor* indices, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  if (self == nullptr) return CheckNotNull("aclnnSort", self, "self");
  if (values == nullptr) return CheckNotNull("aclnnSort", values, "values");
  if (indices == nullptr) return CheckNotNull("aclnnSort", indices, "indices");
  const int64_t rank = static_cast<int64_t>(self->viewDims.size());
  const int64_t d = rank == 0 ? 0 : (dim < 0 ? dim + rank : dim);
  const uint64_t k = rank == 0 ? 1 : (d >= 0 && d < rank ? static_cast<uint64_t>(self->viewDims[d]) : 0);
  return SortWorkspace("aclnnSort", SortSelect::kSort, self, {dim}, false, true, k, descending, stable, values,
                       indices, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnSort)

aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor* self, int64_t k, int64_t dim, bool largest, bool sorted,
                                      aclTensor* valuesOut, aclTensor* indicesOut, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  (void)sorted;  // the first k come out in order either way
  if (k < 0) return RaiseError(ACLNN_ERR_PARAM_INVALID, "aclnnTopk: k = %lld is negative", static_cast<long long>(k));
  if (valuesOut == nullptr) return CheckNotNull("aclnnTopk", valuesOut, "valuesOut");
  if (indicesOut == nullptr) return CheckNotNull("aclnnTopk", indicesOut, "indicesOut");
  return SortWorkspace("aclnnTopk", SortSelect::kTopk, self, {dim}, false, true, static_cast<uint64_t>(k), largest,
                       false, valuesOut, indicesOut, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnTopk)

aclnnStatus aclnnKthvalueGetWorkspaceSize(const aclTensor* self, int64_t k, int64_t dim, bool keepdim,
                                          aclTensor* valuesOut, aclTensor* indicesOut, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
  if (k < 1) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "aclnnKthvalue: k = %lld is out of range", static_cast<long long>(k));
  }
  if (valuesOut == nullptr) return CheckNotNull("aclnnKthvalue", valuesOut, "valuesOut");
  if (indicesOut == nullptr) return CheckNotNull("aclnnKthvalue", indicesOut, "indicesOut");
  return SortWorkspace("aclnnKthvalue", SortSelect::kKth, self, {dim}, false, keepdim, static_cast<uint64_t>(k),
                       false, false, valuesOut, indicesOut, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnKthvalue)

aclnnStatus aclnnMedianGetWorkspaceSize(const aclTensor* self, aclTensor* valuesOut, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
  if (valuesOut == nullptr) return CheckNotNull("aclnnMedian", valuesOut, "valuesOut");
  return SortWorkspace("aclnnMedian", SortSelect::kMedian, self, {}, true, false, 0, false, false, valuesOut, nullptr,
                       workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnMedian)

aclnnStatus aclnnMedianDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* valuesOut,
                                           aclTensor* indicesOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (valuesOut == nullptr) return CheckNotNull("aclnnMedianDim", valuesOut, "valuesOut");
  if (indicesOut == nullptr) return CheckNotNull("aclnnMedianDim", indicesOut, "indicesOut");
  return SortWorkspace("aclnnMedianDim", SortSelect::kMedian, self, {dim}, false, keepdim, 0, false, false,
                       valuesOut, indicesOut, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnMedianDim)

aclnnStatus aclnnNanMedianGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  if (out == nullptr) return CheckNotNull("aclnnNanMedian", out, "out");
  return SortWorkspace("aclnnNanMedian", SortSelect::kNanMedian, self, {}, true, false, 0, false, false, out, nullptr,
                       workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnNanMedian)

aclnnStatus aclnnNanMedianDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* output,
                                              aclTensor* indices, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  if (output == nullptr) return CheckNotNull("aclnnNanMedianDim", output, "output");
  if (indices == nullptr) return CheckNotNull("aclnnNanMedianDim", indices, "indices");
  return SortWorkspace("aclnnNanMedianDim", SortSelect::kNanMedian, self, {dim}, false, keepdim, 0, false, false,
                       output, indices, workspaceSize, executor);
}
ASCENDC_SIM_ACLNN_LAUNCH(aclnnNanMedianDim)

}  // extern "C"
