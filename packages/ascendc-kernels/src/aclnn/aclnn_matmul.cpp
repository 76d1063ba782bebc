// aclnnMm (2-D), aclnnBmm (3-D), aclnnAddmm / aclnnBaddbmm (beta * self +
// alpha * product) and aclnnMatmul (torch.matmul semantics). A 2-D/3-D operand
// that is the transpose of a dense matrix (a t() / transpose(-1, -2) view) is
// read as stored by the kernel (transA / transB); other layouts are brought into
// dense row-major tiles by a view-copy. Then the cube kernel matmul_custom runs;
// out is written back if it is not dense. addmm's bias enters the kernel: a row
// (self of n values) through Mmad's bias table, another self as the
// accumulator's initial value; alpha is applied by Fixpipe.
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "aclnnop/aclnn_bmm.h"
#include "aclnnop/aclnn_dot.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/elementwise_api.h"
#include "kernels/kernel_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;

namespace {

const std::initializer_list<aclDataType> kMatmulDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

aclnnStatus CheckCommon(const char* api, const aclTensor* self, const char* otherName, const aclTensor* other,
                        const aclTensor* out, int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor,
                        const char* selfName = "self") {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, selfName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, other, otherName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, selfName, kMatmulDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, other, otherName, kMatmulDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, out, "out", kMatmulDtypes)) != ACLNN_SUCCESS) return rc;
  if (self->dtype != other->dtype || out->dtype != self->dtype) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID,
                                   "%s: %s, %s and out must have the same dtype, got %s, %s and %s", api, selfName, otherName,
                                   ascendc_sim::DataTypeName(self->dtype), ascendc_sim::DataTypeName(other->dtype),
                                   ascendc_sim::DataTypeName(out->dtype));
  }
  if (cubeMathType < 0 || cubeMathType > 3) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: cubeMathType %d is not one of 0..3", api,
                                   static_cast<int>(cubeMathType));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckOutShape(const char* api, const aclTensor* out, const std::vector<int64_t>& expected) {
  if (out->viewDims == expected) return ACLNN_SUCCESS;
  return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has shape %s, expected %s", api,
                                 ascendc_sim::ShapeToString(out->viewDims).c_str(),
                                 ascendc_sim::ShapeToString(expected).c_str());
}

bool FitsKernel(int64_t m, int64_t n, int64_t k) {
  const int64_t limit = int64_t{1} << 31;
  return m < limit && n < limit && k < limit;
}

// Queues the cube kernel for `shape` (dtype, batch, m/n/k, batch strides); the operand
// buffers are resolved against the workspace when the executor runs.
void AddMatmulStep(ExecutorBuilder& plan, const DenseBuffer& a, const DenseBuffer& b, const DenseBuffer& c,
                   const ascendc_sim::kernels::MatmulArgs& shape) {
  plan.AddStep([a, b, c, shape](uint8_t* ws, aclrtStream stream) {
    ascendc_sim::kernels::MatmulArgs args = shape;
    args.a = a.Resolve(ws);
    args.b = b.Resolve(ws);
    args.c = c.Resolve(ws);
    return ascendc_sim::kernels::LaunchMatmul(args, stream);
  });
}

// `t` of view `shape` ([batch,] rows, cols) as the kernel reads it: its own memory
// when it is the transpose of a dense [batch,] cols x rows matrix (*transposed set),
// else a dense row-major tile (a view-copy unless it already is one).
DenseBuffer MatrixOperand(ExecutorBuilder& plan, const aclTensor* t, const char* name,
                          const std::vector<int64_t>& shape, aclDataType dtype, bool* transposed) {
  *transposed = false;
  const size_t nd = shape.size();
  if (nd >= 2 && t->viewDims == shape && t->dtype == dtype && !t->IsContiguous()) {
    const int64_t rows = shape[nd - 2], cols = shape[nd - 1];
    bool ok = rows > 1 && cols > 1 && t->strides[nd - 2] == 1 && t->strides[nd - 1] == rows;
    int64_t expected = rows * cols;
    for (size_t i = nd - 2; ok && i-- > 0;) {
      if (shape[i] != 1 && t->strides[i] != expected) ok = false;
      expected *= shape[i];
    }
    if (ok) {
      *transposed = true;
      return plan.Direct(t, name);
    }
  }
  return plan.Input(t, name, shape, dtype);
}

aclnnStatus CheckScalar(const char* api, const aclScalar* s, const char* name, double* value) {
  aclnnStatus rc = CheckNotNull(api, s, name);
  if (rc != ACLNN_SUCCESS) return rc;
  *value = s->ToDouble();
  return ACLNN_SUCCESS;
}

// A finite double within float's range (a cast of one past it is undefined).
bool FitsFloat(double v) { return std::isfinite(v) && std::fabs(v) <= FLT_MAX; }

// `v` as the kernel's float scale: infinities and NaN kept, a finite value past float's range
// becomes the infinity of its sign.
float AsFloat(double v) {
  if (std::isnan(v) || FitsFloat(v)) return static_cast<float>(v);
  return v > 0 ? INFINITY : -INFINITY;
}

// out = beta * self + alpha * (a @ b) over `batch` products of m x k by k x n
// (batch 0: 2-D operands). self broadcasts to out's shape.
aclnnStatus PlanAddmm(const char* api, const aclTensor* self, const aclTensor* a, const char* aName,
                      const aclTensor* b, const char* bName, const aclScalar* betaScalar,
                      const aclScalar* alphaScalar, aclTensor* out, int8_t cubeMathType, size_t rank,
                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc = CheckCommon(api, a, bName, b, out, cubeMathType, workspaceSize, executor, aName);
  if (rc != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, self, "self", kMatmulDtypes)) != ACLNN_SUCCESS) return rc;
  if (self->dtype != a->dtype) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self has dtype %s but %s has %s", api,
                                   ascendc_sim::DataTypeName(self->dtype), aName, ascendc_sim::DataTypeName(a->dtype));
  }
  double beta = 1.0, alpha = 1.0;
  if ((rc = CheckScalar(api, betaScalar, "beta", &beta)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckScalar(api, alphaScalar, "alpha", &alpha)) != ACLNN_SUCCESS) return rc;
  if (a->viewDims.size() != rank || b->viewDims.size() != rank) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s and %s must be %zu-D, got %s and %s", api, aName,
                                   bName, rank, ascendc_sim::ShapeToString(a->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(b->viewDims).c_str());
  }
  const std::vector<int64_t>& ad = a->viewDims;
  const std::vector<int64_t>& bd = b->viewDims;
  const int64_t batch = rank == 3 ? ad[0] : 1;
  const int64_t m = ad[rank - 2], k = ad[rank - 1], n = bd[rank - 1];
  if (bd[rank - 2] != k || (rank == 3 && bd[0] != batch)) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s %s and %s %s cannot be multiplied", api, aName,
                                   ascendc_sim::ShapeToString(ad).c_str(), bName,
                                   ascendc_sim::ShapeToString(bd).c_str());
  }
  std::vector<int64_t> outShape = {m, n};
  if (rank == 3) outShape.insert(outShape.begin(), batch);
  if ((rc = CheckOutShape(api, out, outShape)) != ACLNN_SUCCESS) return rc;
  if (!BroadcastsTo(self->viewDims, outShape)) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self %s does not broadcast to %s", api,
                                   ascendc_sim::ShapeToString(self->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(outShape).c_str());
  }
  if (!FitsKernel(m, n, k)) return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dimensions too large", api);
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const aclDataType dtype = a->dtype;
    ascendc_sim::kernels::MatmulArgs shape;
    shape.dtype = dtype;
    shape.batch = static_cast<uint64_t>(batch);
    shape.m = m;
    shape.n = n;
    // alpha = 0: the product does not contribute (as BLAS, it is not computed).
    shape.k = alpha == 0.0 ? 0 : k;
    shape.aBatchStride = static_cast<uint64_t>(m * k);
    shape.bBatchStride = static_cast<uint64_t>(k * n);
    shape.outScale = alpha == 0.0 ? 1.0f : AsFloat(alpha);
    DenseBuffer abuf, bbuf, bias;
    if (shape.k > 0) {
      abuf = MatrixOperand(plan, a, aName, ad, dtype, &shape.transA);
      bbuf = MatrixOperand(plan, b, bName, bd, dtype, &shape.transB);
    }
    // beta = 0: self is ignored (nan and inf in it do not propagate). The kernel folds the bias
    // into the accumulator as beta / alpha, which is only right while that quotient and alpha
    // are finite; otherwise (alpha = inf, ...) a second step adds beta * self to alpha * (a @ b).
    const double quotient = alpha == 0.0 ? 0.0 : beta / alpha;
    const bool foldBias = alpha == 0.0 || (FitsFloat(alpha) && AsFloat(alpha) != 0.0f && FitsFloat(quotient));
    DenseBuffer addend;
    if (beta != 0.0 && !foldBias) {
      addend = plan.Input(self, "self", outShape, dtype);
    } else if (beta != 0.0) {
      shape.biasScale = AsFloat(alpha == 0.0 ? beta : quotient);
      int64_t selfNumel = self->Numel();
      const std::vector<int64_t>& sd = self->viewDims;
      const bool row = !sd.empty() && sd.back() == n && selfNumel == n;
      if (row) {
        shape.biasKind = ascendc_sim::kernels::MatmulBias::kBiasRow;
        bias = plan.Input(self, "self", sd, dtype);
      } else {
        shape.biasKind = ascendc_sim::kernels::MatmulBias::kBiasMatrix;
        shape.biasBatchStride = static_cast<uint64_t>(m * n);
        bias = plan.Input(self, "self", outShape, dtype);
      }
    }
    const DenseBuffer c = plan.Output(out, "out", dtype);
    const bool hasProduct = shape.k > 0, hasBias = beta != 0.0 && foldBias;
    plan.AddStep([abuf, bbuf, bias, c, shape, hasProduct, hasBias](uint8_t* ws, aclrtStream stream) {
      ascendc_sim::kernels::MatmulArgs args = shape;
      if (hasProduct) {
        args.a = abuf.Resolve(ws);
        args.b = bbuf.Resolve(ws);
      }
      if (hasBias) args.bias = bias.Resolve(ws);
      args.c = c.Resolve(ws);
      return ascendc_sim::kernels::LaunchMatmul(args, stream);
    });
    if (beta != 0.0 && !foldBias) {
      const uint64_t count = static_cast<uint64_t>(out->Numel());
      plan.AddStep([addend, c, dtype, beta, count](uint8_t* ws, aclrtStream stream) {
        void* y = c.Resolve(ws);
        return ascendc_sim::kernels::LaunchElementwise(ascendc_sim::kernels::EwOp::kAxpy, dtype, y,
                                                       addend.Resolve(ws), y, count,
                                                       ascendc_sim::kernels::ScalarValue::Floating(beta), stream);
      });
    }
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace

extern "C" {

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType,
                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMm";
  aclnnStatus rc = CheckCommon(api, self, "mat2", mat2, out, cubeMathType, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if (self->viewDims.size() != 2 || mat2->viewDims.size() != 2) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self and mat2 must be 2-D, got %s and %s", api,
                                   ascendc_sim::ShapeToString(self->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(mat2->viewDims).c_str());
  }
  const int64_t m = self->viewDims[0], k = self->viewDims[1], n = mat2->viewDims[1];
  if (mat2->viewDims[0] != k) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID,
                                   "%s: self %s and mat2 %s cannot be multiplied (inner dimensions differ)", api,
                                   ascendc_sim::ShapeToString(self->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(mat2->viewDims).c_str());
  }
  if ((rc = CheckOutShape(api, out, {m, n})) != ACLNN_SUCCESS) return rc;
  if (!FitsKernel(m, n, k)) return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dimensions too large", api);
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const aclDataType dtype = self->dtype;
    ascendc_sim::kernels::MatmulArgs shape;
    const DenseBuffer a = MatrixOperand(plan, self, "self", {m, k}, dtype, &shape.transA);
    const DenseBuffer b = MatrixOperand(plan, mat2, "mat2", {k, n}, dtype, &shape.transB);
    const DenseBuffer c = plan.Output(out, "out", dtype);
    shape.dtype = dtype;
    shape.m = m;
    shape.n = n;
    shape.k = k;
    AddMatmulStep(plan, a, b, c, shape);
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnMm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnMm", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnBmmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnBmm";
  aclnnStatus rc = CheckCommon(api, self, "mat2", mat2, out, cubeMathType, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  const std::vector<int64_t>& sd = self->viewDims;
  const std::vector<int64_t>& md = mat2->viewDims;
  if (sd.size() != 3 || md.size() != 3) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self and mat2 must be 3-D, got %s and %s", api,
                                   ascendc_sim::ShapeToString(sd).c_str(), ascendc_sim::ShapeToString(md).c_str());
  }
  const int64_t batch = sd[0], m = sd[1], k = sd[2], n = md[2];
  if (md[0] != batch || md[1] != k) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID,
                                   "%s: self %s and mat2 %s cannot be multiplied (batch or inner dimensions differ)", api,
                                   ascendc_sim::ShapeToString(sd).c_str(), ascendc_sim::ShapeToString(md).c_str());
  }
  if ((rc = CheckOutShape(api, out, {batch, m, n})) != ACLNN_SUCCESS) return rc;
  if (!FitsKernel(m, n, k)) return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dimensions too large", api);
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const aclDataType dtype = self->dtype;
    ascendc_sim::kernels::MatmulArgs shape;
    const DenseBuffer a = MatrixOperand(plan, self, "self", sd, dtype, &shape.transA);
    const DenseBuffer b = MatrixOperand(plan, mat2, "mat2", md, dtype, &shape.transB);
    const DenseBuffer c = plan.Output(out, "out", dtype);
    shape.dtype = dtype;
    shape.batch = static_cast<uint64_t>(batch);
    shape.m = m;
    shape.n = n;
    shape.k = k;
    shape.aBatchStride = static_cast<uint64_t>(m * k);
    shape.bBatchStride = static_cast<uint64_t>(k * n);
    AddMatmulStep(plan, a, b, c, shape);
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnBmm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnBmm", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                                       const aclScalar* beta, const aclScalar* alpha, aclTensor* out,
                                       int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PlanAddmm("aclnnAddmm", self, mat1, "mat1", mat2, "mat2", beta, alpha, out, cubeMathType, 2, workspaceSize,
                   executor);
}

aclnnStatus aclnnAddmm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnAddmm", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnBaddbmmGetWorkspaceSize(const aclTensor* self, const aclTensor* batch1, const aclTensor* batch2,
                                         const aclScalar* beta, const aclScalar* alpha, aclTensor* out,
                                         int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PlanAddmm("aclnnBaddbmm", self, batch1, "batch1", batch2, "batch2", beta, alpha, out, cubeMathType, 3,
                   workspaceSize, executor);
}

aclnnStatus aclnnBaddbmm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnBaddbmm", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor* self, const aclTensor* vec, aclTensor* out, int8_t cubeMathType,
                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMv";
  aclnnStatus rc = CheckCommon(api, self, "vec", vec, out, cubeMathType, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if (self->viewDims.size() != 2 || vec->viewDims.size() != 1 || vec->viewDims[0] != self->viewDims[1]) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self %s (2-D) and vec %s (1-D) cannot be multiplied",
                                   api, ascendc_sim::ShapeToString(self->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(vec->viewDims).c_str());
  }
  const int64_t m = self->viewDims[0], k = self->viewDims[1];
  if ((rc = CheckOutShape(api, out, {m})) != ACLNN_SUCCESS) return rc;
  if (!FitsKernel(m, 1, k)) return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dimensions too large", api);
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    ascendc_sim::kernels::MatmulArgs shape;
    const DenseBuffer a = MatrixOperand(plan, self, "self", {m, k}, self->dtype, &shape.transA);
    const DenseBuffer b = plan.Input(vec, "vec", {k}, self->dtype);  // the dense k x 1 matrix
    const DenseBuffer c = plan.Output(out, "out", self->dtype);
    shape.dtype = self->dtype;
    shape.m = m;
    shape.n = 1;
    shape.k = k;
    AddMatmulStep(plan, a, b, c, shape);
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnMv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnMv", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnDotGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnDot";
  aclnnStatus rc = CheckCommon(api, self, "tensor", tensor, out, 0, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  if (self->viewDims.size() != 1 || tensor->viewDims.size() != 1 || self->viewDims[0] != tensor->viewDims[0]) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: self %s and tensor %s must be 1-D of the same size",
                                   api, ascendc_sim::ShapeToString(self->viewDims).c_str(),
                                   ascendc_sim::ShapeToString(tensor->viewDims).c_str());
  }
  const int64_t k = self->viewDims[0];
  if ((rc = CheckOutShape(api, out, {})) != ACLNN_SUCCESS) return rc;
  if (!FitsKernel(1, 1, k)) return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dimensions too large", api);
  ExecutorBuilder plan(api);
  ascendc_sim::kernels::MatmulArgs shape;
  const DenseBuffer a = plan.Input(self, "self", {k}, self->dtype);    // 1 x k
  const DenseBuffer b = plan.Input(tensor, "tensor", {k}, self->dtype);  // k x 1
  const DenseBuffer c = plan.Output(out, "out", self->dtype);
  shape.dtype = self->dtype;
  shape.m = 1;
  shape.n = 1;
  shape.k = k;
  AddMatmulStep(plan, a, b, c, shape);
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnDot(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnDot", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                        int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMatmul";
  aclnnStatus rc = CheckCommon(api, self, "other", other, out, cubeMathType, workspaceSize, executor);
  if (rc != ACLNN_SUCCESS) return rc;
  const std::vector<int64_t>& sd = self->viewDims;
  const std::vector<int64_t>& od = other->viewDims;
  if (sd.empty() || od.empty()) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: both arguments need at least 1 dimension, got %s and %s",
                                   api, ascendc_sim::ShapeToString(sd).c_str(), ascendc_sim::ShapeToString(od).c_str());
  }
  // self as (batch..., m, k), other as (batch..., k, n); 1-D operands get a dimension of 1 that the result drops.
  const bool selfVector = sd.size() == 1, otherVector = od.size() == 1;
  const int64_t m = selfVector ? 1 : sd[sd.size() - 2];
  const int64_t k = sd.back();
  const int64_t ok = otherVector ? od[0] : od[od.size() - 2];
  const int64_t n = otherVector ? 1 : od.back();
  if (ok != k) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID,
                                   "%s: self %s and other %s cannot be multiplied (inner dimensions differ)", api,
                                   ascendc_sim::ShapeToString(sd).c_str(), ascendc_sim::ShapeToString(od).c_str());
  }
  const std::vector<int64_t> selfBatch(sd.begin(), sd.end() - std::min<size_t>(sd.size(), 2));
  const std::vector<int64_t> otherBatch(od.begin(), od.end() - std::min<size_t>(od.size(), 2));
  std::vector<int64_t> batch;
  if (!BroadcastShapes(selfBatch, otherBatch, &batch)) {
    return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: batch dimensions of self %s and other %s do not broadcast",
                                   api, ascendc_sim::ShapeToString(sd).c_str(), ascendc_sim::ShapeToString(od).c_str());
  }
  std::vector<int64_t> expected = batch;
  if (!selfVector) expected.push_back(m);
  if (!otherVector) expected.push_back(n);
  if ((rc = CheckOutShape(api, out, expected)) != ACLNN_SUCCESS) return rc;
  if (!FitsKernel(m, n, k)) return ascendc_sim::RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dimensions too large", api);
  int64_t batchCount = 1;
  for (int64_t d : batch) batchCount *= d;
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const aclDataType dtype = self->dtype;
    // An operand without batch dimensions is shared by every batch (stride 0), else broadcast densely.
    std::vector<int64_t> aShape = selfBatch.empty() ? std::vector<int64_t>{} : batch;
    std::vector<int64_t> bShape = otherBatch.empty() ? std::vector<int64_t>{} : batch;
    if (selfVector) {
      aShape.push_back(k);
    } else {
      aShape.insert(aShape.end(), {m, k});
    }
    if (otherVector) {
      bShape.push_back(k);  // [k] is the dense k x 1 matrix
    } else {
      bShape.insert(bShape.end(), {k, n});
    }
    const DenseBuffer a = plan.Input(self, "self", aShape, dtype);
    const DenseBuffer b = plan.Input(other, "other", bShape, dtype);
    const DenseBuffer c = plan.Output(out, "out", dtype);
    ascendc_sim::kernels::MatmulArgs shape;
    shape.dtype = dtype;
    shape.batch = static_cast<uint64_t>(batchCount);
    shape.m = m;
    shape.n = n;
    shape.k = k;
    shape.aBatchStride = selfBatch.empty() ? 0 : static_cast<uint64_t>(m * k);  // 0: broadcast
    shape.bBatchStride = otherBatch.empty() ? 0 : static_cast<uint64_t>(k * n);
    AddMatmulStep(plan, a, b, c, shape);
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnMatmul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnMatmul", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
