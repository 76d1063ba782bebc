// aclnnGather, aclnnScatter(Value/Add) and aclnnIndexAdd. Operands are made dense
// by the l0 view-copy; for the scatters out is first made a dense copy of self,
// then gather_scatter_custom / index_add_custom update it in place, and a
// non-dense out is written back.
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_index_add.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_index_fill.h"
#include "aclnnop/aclnn_index_reduce.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_scatter_reduce.h"

#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;
using ascendc_sim::DataTypeName;
using ascendc_sim::RaiseError;
using ascendc_sim::ShapeToString;
namespace k = ascendc_sim::kernels;

namespace {

const std::initializer_list<aclDataType> kIndexDtypes = {ACL_INT32, ACL_INT64};

std::vector<int64_t> AtLeast1d(const std::vector<int64_t>& d) { return d.empty() ? std::vector<int64_t>{1} : d; }

aclnnStatus CheckDim(const char* api, int64_t* dim, size_t rank) {
  const int64_t r = static_cast<int64_t>(rank == 0 ? 1 : rank);
  if (*dim < -r || *dim >= r) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %lld is out of range for %zu dimensions", api,
                      static_cast<long long>(*dim), rank);
  }
  if (*dim < 0) *dim += r;
  return ACLNN_SUCCESS;
}

aclnnStatus CheckPointers(const char* api, uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  return CheckNotNull(api, executor, "executor");
}

// index fits `other` (same rank; index.size(d) <= other.size(d), except d == dim when skipDim).
aclnnStatus CheckIndexFits(const char* api, const std::vector<int64_t>& index, const std::vector<int64_t>& other,
                           const char* otherName, int64_t dim, bool skipDim) {
  bool ok = index.size() == other.size();
  for (size_t d = 0; ok && d < index.size(); ++d) {
    if (skipDim && static_cast<int64_t>(d) == dim) continue;
    ok = index[d] <= other[d];
  }
  if (!ok) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: index %s does not fit %s %s (same rank, no larger size%s)", api,
                      ShapeToString(index).c_str(), otherName, ShapeToString(other).c_str(),
                      skipDim ? " outside dim" : "");
  }
  return ACLNN_SUCCESS;
}

// A dense buffer holding out's final values, initialised with a copy of self.
DenseBuffer OutFromSelf(ExecutorBuilder& plan, const aclTensor* self, aclTensor* out) {
  const DenseBuffer x = plan.Input(self, "self", self->viewDims, self->dtype);
  const DenseBuffer y = plan.Output(out, "out", self->dtype);
  if (x.workspaceOffset < 0 && y.workspaceOffset < 0 && x.direct == y.direct) return y;  // in place
  const int64_t n = self->Numel();
  k::ViewCopyArgs args;
  args.ndim = 1;
  args.shape[0] = n;
  args.src.dtype = args.dst.dtype = self->dtype;
  args.src.strides[0] = args.dst.strides[0] = 1;
  plan.AddStep([args, x, y](uint8_t* ws, aclrtStream stream) mutable {
    args.src.data = x.Resolve(ws);
    args.dst.data = y.Resolve(ws);
    return k::LaunchViewCopy(args, stream);
  });
  return y;
}

void FillShape(int64_t* to, const std::vector<int64_t>& from) {
  for (size_t d = 0; d < from.size(); ++d) to[d] = from[d];
}

enum class ScatterKind { kSrc, kValue, kAdd };

aclnnStatus ScatterWorkspace(const char* api, ScatterKind kind, const aclTensor* self, int64_t dim,
                             const aclTensor* index, const aclTensor* src, const aclScalar* value, int64_t reduce,
                             aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, index, "index")) != ACLNN_SUCCESS) return rc;
  if (kind == ScatterKind::kValue) {
    if ((rc = CheckNotNull(api, value, "value")) != ACLNN_SUCCESS) return rc;
  } else if ((rc = CheckNotNull(api, src, "src")) != ACLNN_SUCCESS) {
    return rc;
  }
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, index, "index", kIndexDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if (src != nullptr && kind != ScatterKind::kValue &&
      (rc = CheckTensor(api, src, "src", kAllDtypes)) != ACLNN_SUCCESS) {
    return rc;
  }
  if (reduce < 0 || reduce > 2 || (kind == ScatterKind::kAdd && reduce != 0)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: reduce %lld is not 0 (none), 1 (add) or 2 (multiply)",
                      api, static_cast<long long>(reduce));
  }
  if (out->dtype != self->dtype || out->viewDims != self->viewDims ||
      (kind != ScatterKind::kValue && src->dtype != self->dtype)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out (and src) must have self's shape %s and dtype %s", api,
                      ShapeToString(self->viewDims).c_str(), DataTypeName(self->dtype));
  }
  if ((rc = CheckDim(api, &dim, self->viewDims.size())) != ACLNN_SUCCESS) return rc;
  const std::vector<int64_t> selfShape = AtLeast1d(self->viewDims), indexShape = AtLeast1d(index->viewDims);
  if ((rc = CheckIndexFits(api, indexShape, selfShape, "self", dim, true)) != ACLNN_SUCCESS) return rc;
  std::vector<int64_t> srcShape = indexShape;
  if (kind != ScatterKind::kValue) {
    srcShape = AtLeast1d(src->viewDims);
    if ((rc = CheckIndexFits(api, indexShape, srcShape, "src", dim, false)) != ACLNN_SUCCESS) return rc;
  }
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const DenseBuffer y = OutFromSelf(plan, self, out);
    if (index->Numel() > 0) {
      k::GatherScatterArgs shape;
      shape.mode = kind == ScatterKind::kValue ? k::GatherScatterMode::kScatterValue
                   : (kind == ScatterKind::kAdd || reduce == 1) ? k::GatherScatterMode::kScatterAdd
                                                                : k::GatherScatterMode::kScatter;
      if (reduce == 2 || (kind == ScatterKind::kValue && reduce == 1)) {
        // multiply (src or value), add of a value: the reducing scatter with self included
        shape.mode = k::GatherScatterMode::kScatterReduce;
        shape.reduce = reduce == 2 ? k::ScatterReduceOp::kProd : k::ScatterReduceOp::kSum;
        shape.includeSelf = true;
      }
      shape.dtype = self->dtype;
      shape.indexDtype = index->dtype;
      shape.ndim = static_cast<int32_t>(selfShape.size());
      shape.dim = static_cast<int32_t>(dim);
      FillShape(shape.indexShape, indexShape);
      FillShape(shape.selfShape, selfShape);
      FillShape(shape.srcShape, srcShape);
      shape.op = kind == ScatterKind::kAdd ? "scatter_add" : "scatter";
      if (kind == ScatterKind::kValue) {
        shape.value = value->IsFloating() ? k::ScalarValue::Floating(value->ToDouble())
                                          : k::ScalarValue::Integral(value->ToInt64());
      }
      const DenseBuffer idx = plan.Input(index, "index", index->viewDims, index->dtype);
      DenseBuffer s;
      if (kind != ScatterKind::kValue) s = plan.Input(src, "src", src->viewDims, self->dtype);
      plan.AddStep([shape, y, idx, s](uint8_t* ws, aclrtStream stream) {
        k::GatherScatterArgs args = shape;
        args.self = y.Resolve(ws);
        args.index = idx.Resolve(ws);
        args.src = s.dtype == ACL_DT_UNDEFINED ? nullptr : s.Resolve(ws);
        return k::LaunchGatherScatter(args, stream);
      });
    }
  }
  return plan.Finish(workspaceSize, executor);
}

// aclnnScatterReduce (indexVector false: index has src's rank) and aclnnIndexReduce,
// aclnnIndexCopy, aclnnIndexFill (indexVector: a 0-d/1-D index of source.size(dim)
// entries; index_fill's value scalar stands in for a source of that shape).
const k::ScatterReduceOp kReduceCodes[] = {k::ScatterReduceOp::kSum, k::ScatterReduceOp::kSum,
                                           k::ScatterReduceOp::kProd, k::ScatterReduceOp::kMax,
                                           k::ScatterReduceOp::kMin, k::ScatterReduceOp::kMean};

aclnnStatus CheckReduceCode(const char* api, int64_t reduce) {
  if (reduce >= 1 && reduce <= 5) return ACLNN_SUCCESS;
  return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: reduce %lld is not 1 (sum), 2 (prod), 3 (amax), 4 (amin) or 5 "
                    "(mean)", api, static_cast<long long>(reduce));
}

aclnnStatus ReduceWorkspace(const char* api, bool indexVector, const aclTensor* self, int64_t dim,
                            const aclTensor* index, const aclTensor* src, const aclScalar* value,
                            k::ScatterReduceOp op, bool includeSelf, aclTensor* out, uint64_t* workspaceSize,
                            aclOpExecutor** executor) {
  const char* srcName = indexVector ? "source" : "src";
  const char* selfName = self == out ? "selfRef" : "self";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, selfName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, index, "index")) != ACLNN_SUCCESS) return rc;
  if (value == nullptr && (rc = CheckNotNull(api, src, srcName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, selfName, kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, index, "index", kIndexDtypes)) != ACLNN_SUCCESS) return rc;
  if (src != nullptr && (rc = CheckTensor(api, src, srcName, kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if (out != self && (rc = CheckTensor(api, out, "out", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if (src == nullptr) src = self;  // a value: the source's shape is self's with index.numel() along dim
  if (out->dtype != self->dtype || out->viewDims != self->viewDims || src->dtype != self->dtype) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out (and %s) must have self's shape %s and dtype %s", api,
                      srcName, ShapeToString(self->viewDims).c_str(), DataTypeName(self->dtype));
  }
  if ((rc = CheckDim(api, &dim, self->viewDims.size())) != ACLNN_SUCCESS) return rc;
  const std::vector<int64_t> selfShape = AtLeast1d(self->viewDims);
  std::vector<int64_t> srcShape = AtLeast1d(src->viewDims);
  std::vector<int64_t> indexShape = AtLeast1d(index->viewDims);
  if (indexVector) {
    if (index->viewDims.size() > 1) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: index must be 0-d or 1-D, got %s", api,
                        ShapeToString(index->viewDims).c_str());
    }
    std::vector<int64_t> expected = selfShape;
    expected[dim] = index->Numel();
    if (value != nullptr) srcShape = expected;
    if (srcShape != expected) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: source must have shape %s, got %s", api,
                        ShapeToString(expected).c_str(), ShapeToString(src->viewDims).c_str());
    }
    indexShape = srcShape;  // every line of source uses the index vector
  } else {
    if ((rc = CheckIndexFits(api, indexShape, selfShape, "self", dim, true)) != ACLNN_SUCCESS) return rc;
    if ((rc = CheckIndexFits(api, indexShape, srcShape, "src", dim, false)) != ACLNN_SUCCESS) return rc;
  }
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const DenseBuffer y = OutFromSelf(plan, self, out);
    if (index->Numel() > 0 && (value != nullptr || src->Numel() > 0)) {
      k::GatherScatterArgs shape;
      shape.mode = k::GatherScatterMode::kScatterReduce;
      shape.reduce = op;
      shape.includeSelf = includeSelf;
      shape.indexAlongDim = indexVector;
      shape.wrapNegative = value != nullptr;  // index_fill counts negative indices from the end
      shape.dtype = self->dtype;
      shape.indexDtype = index->dtype;
      shape.ndim = static_cast<int32_t>(selfShape.size());
      shape.dim = static_cast<int32_t>(dim);
      FillShape(shape.indexShape, indexShape);
      FillShape(shape.selfShape, selfShape);
      FillShape(shape.srcShape, srcShape);
      shape.op = api;
      if (value != nullptr) {
        shape.value = value->IsFloating() ? k::ScalarValue::Floating(value->ToDouble())
                                          : k::ScalarValue::Integral(value->ToInt64());
      }
      const DenseBuffer idx = plan.Input(index, "index", index->viewDims, index->dtype);
      DenseBuffer s;
      if (value == nullptr) s = plan.Input(src, srcName, src->viewDims, self->dtype);
      DenseBuffer counts;
      const bool mean = shape.reduce == k::ScatterReduceOp::kMean;
      if (mean) counts = plan.Scratch(out->Numel(), ACL_INT64);
      const uint64_t numel = static_cast<uint64_t>(out->Numel());
      plan.AddStep([shape, y, idx, s, counts, mean, numel](uint8_t* ws, aclrtStream stream) {
        k::GatherScatterArgs args = shape;
        args.self = y.Resolve(ws);
        args.index = idx.Resolve(ws);
        args.src = s.dtype == ACL_DT_UNDEFINED ? nullptr : s.Resolve(ws);
        if (mean) {
          args.counts = counts.Resolve(ws);
          const aclError err = k::LaunchFill(ACL_INT64, args.counts, numel, k::ScalarValue::Integral(0), stream);
          if (err != ACL_SUCCESS) return err;
        }
        return k::LaunchGatherScatter(args, stream);
      });
    }
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace

extern "C" {

aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnGather";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, index, "index")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, index, "index", kIndexDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if (out->dtype != self->dtype || out->viewDims != index->viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out must have index's shape %s and self's dtype %s, got %s of %s",
                      api, ShapeToString(index->viewDims).c_str(), DataTypeName(self->dtype),
                      ShapeToString(out->viewDims).c_str(), DataTypeName(out->dtype));
  }
  if ((rc = CheckDim(api, &dim, self->viewDims.size())) != ACLNN_SUCCESS) return rc;
  const std::vector<int64_t> selfShape = AtLeast1d(self->viewDims), indexShape = AtLeast1d(index->viewDims);
  if ((rc = CheckIndexFits(api, indexShape, selfShape, "self", dim, true)) != ACLNN_SUCCESS) return rc;
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    if (self->Numel() == 0) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: cannot gather from an empty self", api);
    }
    k::GatherScatterArgs shape;
    shape.mode = k::GatherScatterMode::kGather;
    shape.dtype = self->dtype;
    shape.indexDtype = index->dtype;
    shape.ndim = static_cast<int32_t>(selfShape.size());
    shape.dim = static_cast<int32_t>(dim);
    FillShape(shape.indexShape, indexShape);
    FillShape(shape.selfShape, selfShape);
    FillShape(shape.srcShape, indexShape);
    const DenseBuffer x = plan.Input(self, "self", self->viewDims, self->dtype);
    const DenseBuffer idx = plan.Input(index, "index", index->viewDims, index->dtype);
    const DenseBuffer y = plan.Output(out, "out", self->dtype);
    plan.AddStep([shape, x, idx, y](uint8_t* ws, aclrtStream stream) {
      k::GatherScatterArgs args = shape;
      args.self = x.Resolve(ws);
      args.index = idx.Resolve(ws);
      args.out = y.Resolve(ws);
      return k::LaunchGatherScatter(args, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnGather(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnGather", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnScatterGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                         const aclTensor* src, int64_t reduce, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ScatterWorkspace("aclnnScatter", ScatterKind::kSrc, self, dim, index, src, nullptr, reduce, out,
                          workspaceSize, executor);
}

aclnnStatus aclnnScatter(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnScatter", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnScatterValueGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                              const aclScalar* value, int64_t reduce, aclTensor* out,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ScatterWorkspace("aclnnScatterValue", ScatterKind::kValue, self, dim, index, nullptr, value, reduce, out,
                          workspaceSize, executor);
}

aclnnStatus aclnnScatterValue(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnScatterValue", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnScatterAddGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                            const aclTensor* src, aclTensor* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return ScatterWorkspace("aclnnScatterAdd", ScatterKind::kAdd, self, dim, index, src, nullptr, 0, out,
                          workspaceSize, executor);
}

aclnnStatus aclnnScatterAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnScatterAdd", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnScatterReduceGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                               const aclTensor* src, int64_t reduce, bool includeSelf,
                                               aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const aclnnStatus rc = CheckReduceCode("aclnnScatterReduce", reduce);
  if (rc != ACLNN_SUCCESS) return rc;
  return ReduceWorkspace("aclnnScatterReduce", false, self, dim, index, src, nullptr, kReduceCodes[reduce],
                         includeSelf, out, workspaceSize, executor);
}

aclnnStatus aclnnScatterReduce(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnScatterReduce", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnIndexReduceGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                             const aclTensor* source, int64_t reduce, bool includeSelf,
                                             aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const aclnnStatus rc = CheckReduceCode("aclnnIndexReduce", reduce);
  if (rc != ACLNN_SUCCESS) return rc;
  return ReduceWorkspace("aclnnIndexReduce", true, self, dim, index, source, nullptr, kReduceCodes[reduce],
                         includeSelf, out, workspaceSize, executor);
}

aclnnStatus aclnnIndexReduce(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnIndexReduce", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnIndexCopyGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                           const aclTensor* source, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return ReduceWorkspace("aclnnIndexCopy", true, self, dim, index, source, nullptr, k::ScatterReduceOp::kReplace,
                         true, out, workspaceSize, executor);
}

aclnnStatus aclnnIndexCopy(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnIndexCopy", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceIndexCopyGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                                  const aclTensor* source, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return ReduceWorkspace("aclnnInplaceIndexCopy", true, selfRef, dim, index, source, nullptr,
                         k::ScatterReduceOp::kReplace, true, selfRef, workspaceSize, executor);
}

aclnnStatus aclnnInplaceIndexCopy(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceIndexCopy", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnIndexFillGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                           const aclScalar* value, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  const aclnnStatus rc = CheckNotNull("aclnnIndexFill", value, "value");
  if (rc != ACLNN_SUCCESS) return rc;
  return ReduceWorkspace("aclnnIndexFill", true, self, dim, index, nullptr, value, k::ScatterReduceOp::kReplace,
                         true, out, workspaceSize, executor);
}

aclnnStatus aclnnIndexFill(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnIndexFill", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceIndexFillGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                                  const aclScalar* value, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  const aclnnStatus rc = CheckNotNull("aclnnInplaceIndexFill", value, "value");
  if (rc != ACLNN_SUCCESS) return rc;
  return ReduceWorkspace("aclnnInplaceIndexFill", true, selfRef, dim, index, nullptr, value,
                         k::ScatterReduceOp::kReplace, true, selfRef, workspaceSize, executor);
}

aclnnStatus aclnnInplaceIndexFill(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnInplaceIndexFill", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnIndexAddGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                          const aclTensor* source, const aclScalar* alpha, aclTensor* out,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnIndexAdd";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, index, "index")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, source, "source")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, alpha, "alpha")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckPointers(api, workspaceSize, executor)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, index, "index", kIndexDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, source, "source", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kAllDtypes)) != ACLNN_SUCCESS) return rc;
  if (index->viewDims.size() > 1) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: index must be 0-d or 1-D, got %s", api,
                      ShapeToString(index->viewDims).c_str());
  }
  if ((rc = CheckDim(api, &dim, self->viewDims.size())) != ACLNN_SUCCESS) return rc;
  const std::vector<int64_t> selfShape = AtLeast1d(self->viewDims);
  std::vector<int64_t> expected = selfShape;
  expected[dim] = index->Numel();
  if (AtLeast1d(source->viewDims) != expected || source->dtype != self->dtype || out->dtype != self->dtype ||
      out->viewDims != self->viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID,
                      "%s: source must be %s and out %s, both of self's dtype %s; got source %s of %s", api,
                      ShapeToString(expected).c_str(), ShapeToString(self->viewDims).c_str(),
                      DataTypeName(self->dtype), ShapeToString(source->viewDims).c_str(),
                      DataTypeName(source->dtype));
  }
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const DenseBuffer y = OutFromSelf(plan, self, out);
    if (index->Numel() > 0) {
      k::IndexAddArgs shape;
      shape.dtype = self->dtype;
      shape.indexDtype = index->dtype;
      shape.outer = 1;
      for (int64_t d = 0; d < dim; ++d) shape.outer *= selfShape[d];
      shape.inner = 1;
      for (size_t d = static_cast<size_t>(dim) + 1; d < selfShape.size(); ++d) shape.inner *= selfShape[d];
      shape.dimSize = selfShape[dim];
      shape.count = index->Numel();
      shape.alpha = alpha->IsFloating() ? k::ScalarValue::Floating(alpha->ToDouble())
                                        : k::ScalarValue::Integral(alpha->ToInt64());
      const DenseBuffer idx = plan.Input(index, "index", index->viewDims, index->dtype);
      const DenseBuffer s = plan.Input(source, "source", source->viewDims, self->dtype);
      plan.AddStep([shape, y, idx, s](uint8_t* ws, aclrtStream stream) {
        k::IndexAddArgs args = shape;
        args.self = y.Resolve(ws);
        args.index = idx.Resolve(ws);
        args.source = s.Resolve(ws);
        return k::LaunchIndexAdd(args, stream);
      });
    }
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnIndexAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnIndexAdd", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
