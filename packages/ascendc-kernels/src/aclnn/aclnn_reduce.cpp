// aclnnReduceSum, aclnnMean, aclnnAmax and aclnnAmin: the reduced dimensions are moved innermost (a
// permuted view of self), then a row kernel reduces each row; out's elements are
// the kept dimensions in order, with or without the size-1 reduced ones. Float
// results: reduce_custom over the view made dense (and float32) by a view-copy
// when needed; a sum or mean of a dense self over dimensions followed by kept ones
// is column_sum_custom's, which reads self in place. Exact results (integers, bool, double): reduce_exact_custom reads
// self in place, strided or not.
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_reduce_sum.h"

#include <math.h>

#include <algorithm>
#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;

namespace {

const std::initializer_list<aclDataType> kMeanDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

bool IsVectorFloat(aclDataType t) { return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16; }

aclnnStatus BuildReduce(const char* api, const aclTensor* self, const aclIntArray* dims, bool keepDims,
                        aclDataType outDtype, aclTensor* out, ascendc_sim::kernels::RowReduceOp op,
                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  using ascendc_sim::kernels::RowReduceOp;
  const bool isExtreme = op == RowReduceOp::kMax || op == RowReduceOp::kMin;
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, dims, "dim")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  const std::initializer_list<aclDataType> supported = op == RowReduceOp::kMean ? kMeanDtypes : kAllDtypes;
  if ((rc = CheckTensor(api, self, "self", supported)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", supported)) != ACLNN_SUCCESS) return rc;
  if (out->dtype != outDtype) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has dtype %s, expected %s", api,
                                   ascendc_sim::DataTypeName(out->dtype), ascendc_sim::DataTypeName(outDtype));
  }
  const int64_t rank = static_cast<int64_t>(self->viewDims.size());
  std::vector<bool> reduced(static_cast<size_t>(rank), dims->values.empty());
  std::vector<bool> named(static_cast<size_t>(rank), false);
  for (int64_t d : dims->values) {
    const int64_t span = rank == 0 ? 1 : rank;
    if (d < -span || d >= span) {
      return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %lld is out of range for a %lld-D self", api,
                                     static_cast<long long>(d), static_cast<long long>(rank));
    }
    if (rank == 0) continue;
    const size_t k = static_cast<size_t>(d < 0 ? d + rank : d);
    if (named[k]) {
      return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %zu appears more than once", api, k);
    }
    named[k] = reduced[k] = true;
  }
  // Permuted view: kept dimensions, then reduced ones; the expected out shape.
  aclTensor view = *self;
  view.viewDims.clear();
  view.strides.clear();
  std::vector<int64_t> expected;
  uint64_t rows = 1, cols = 1;
  const size_t keptDims = static_cast<size_t>(std::count(reduced.begin(), reduced.end(), false));
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t k = 0; k < static_cast<size_t>(rank); ++k) {
      if (reduced[k] != (pass == 1)) continue;
      view.viewDims.push_back(self->viewDims[k]);
      view.strides.push_back(self->strides[k]);
      (pass == 0 ? rows : cols) *= static_cast<uint64_t>(self->viewDims[k]);
    }
  }
  for (size_t k = 0; k < static_cast<size_t>(rank); ++k) {
    if (!reduced[k]) {
      expected.push_back(self->viewDims[k]);
    } else if (keepDims) {
      expected.push_back(1);
    }
  }
  if (out->viewDims != expected) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has shape %s, expected %s", api,
                                   ascendc_sim::ShapeToString(out->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(expected).c_str());
  }
  if (isExtreme && cols == 0 && rows > 0) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID,
                                   "%s: cannot reduce over a dimension of size 0 (the %s of no elements)", api,
                                   op == RowReduceOp::kMax ? "maximum" : "minimum");
  }
  // Compute types: float16/bfloat16/float32 results run on the vector unit (self
  // converted to float32 unless it is one of those); other results are computed
  // exactly by reduce_exact_custom, which reads integer, bool and double inputs as
  // they are (no converted copy of self: the extra memory is the output's) and
  // accumulates in int64 or double, converted on the way out. A float input with
  // an integer or double result is converted to double first.
  aclDataType dtype = self->dtype, yType = outDtype;
  bool exact = false;
  if (IsVectorFloat(outDtype)) {
    if (!IsVectorFloat(dtype)) dtype = ACL_FLOAT;
  } else {
    exact = true;
    if (IsVectorFloat(dtype) || outDtype == ACL_DOUBLE) dtype = ACL_DOUBLE;
    yType = ascendc_sim::kernels::ExactReduceAccType(dtype, op);
  }
  ExecutorBuilder plan(api);
  if (rows > 0) {
    const DenseBuffer y = plan.Output(out, "out", yType);
    if (cols == 0) {
      const double empty = op == RowReduceOp::kMean ? NAN : 0.0;  // the mean of no elements is NaN
      plan.AddStep([y, rows, yType, empty](uint8_t* ws, aclrtStream stream) {
        return ascendc_sim::kernels::LaunchFill(yType, y.Resolve(ws), rows,
                                                ascendc_sim::kernels::ScalarValue::Floating(empty), stream);
      });
    } else if (ascendc_sim::kernels::ColumnReduceShape columns;
               !exact && dtype == self->dtype && (op == RowReduceOp::kSum || op == RowReduceOp::kMean) &&
               self->IsContiguous() && ascendc_sim::kernels::ColumnReduceShapeOf(self->viewDims, reduced, &columns)) {
      const DenseBuffer x = plan.Direct(self, "self");
      plan.AddStep([x, y, columns, dtype, yType, op](uint8_t* ws, aclrtStream stream) {
        return ascendc_sim::kernels::LaunchColumnReduce(dtype, x.Resolve(ws), yType, y.Resolve(ws), columns.batch,
                                                        columns.rows, columns.cols, op, stream);
      });
    } else if (const auto strided = exact && dtype == self->dtype ? StridedRowsOf(view, keptDims) : std::nullopt) {
      const DenseBuffer x = plan.Direct(self, "self");
      plan.AddStep([x, y, layout = *strided, dtype, op](uint8_t* ws, aclrtStream stream) {
        return ascendc_sim::kernels::LaunchStridedReduceExact(dtype, x.Resolve(ws), layout, y.Resolve(ws), op, stream);
      });
    } else {
      const DenseBuffer x = plan.Input(&view, "self", view.viewDims, dtype);
      plan.AddStep([x, y, rows, cols, dtype, yType, op, exact](uint8_t* ws, aclrtStream stream) {
        if (exact) return ascendc_sim::kernels::LaunchRowReduceExact(dtype, x.Resolve(ws), y.Resolve(ws), rows, cols,
                                                                     op, stream);
        return ascendc_sim::kernels::LaunchRowReduce(dtype, x.Resolve(ws), yType, y.Resolve(ws), rows, cols, op,
                                                     stream);
      });
    }
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace

extern "C" {

aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, bool keepDims,
                                           aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return BuildReduce("aclnnReduceSum", self, dims, keepDims, dtype, out, ascendc_sim::kernels::RowReduceOp::kSum,
                     workspaceSize, executor);
}

aclnnStatus aclnnReduceSum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnReduceSum", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (self == nullptr) return CheckNotNull("aclnnAmax", self, "self");
  return BuildReduce("aclnnAmax", self, dim, keepDim, self->dtype, out, ascendc_sim::kernels::RowReduceOp::kMax,
                     workspaceSize, executor);
}

aclnnStatus aclnnAmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnAmax", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (self == nullptr) return CheckNotNull("aclnnAmin", self, "self");
  return BuildReduce("aclnnAmin", self, dim, keepDim, self->dtype, out, ascendc_sim::kernels::RowReduceOp::kMin,
                     workspaceSize, executor);
}

aclnnStatus aclnnAmin(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnAmin", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclDataType dtype,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return BuildReduce("aclnnMean", self, dim, keepDim, dtype, out, ascendc_sim::kernels::RowReduceOp::kMean,
                     workspaceSize, executor);
}

aclnnStatus aclnnMean(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnMean", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
