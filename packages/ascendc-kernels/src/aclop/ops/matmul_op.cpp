// acl_op types MatMulV2 and BatchMatMul (declared in abi/aclop/matmul.decl, which
// checks their dtypes and reads their attributes).
//
// MatMulV2: y = op(x1) @ op(x2) [+ bias], op = transpose when the bool attribute
// transpose_x1 / transpose_x2 is set; x1, x2 2-D, the optional third input bias
// 1-D [n]. x1, x2 and y may be ND
// or FRACTAL_NZ (the runtime's internal format of matmul weights): an NZ
// operand is unpacked by the TransData kernel into a dense temporary, an NZ y
// is packed from one. A transposed operand is read as stored by the cube
// kernel matmul_custom (no transposed copy); the bias enters through Mmad's
// bias table.
//
// BatchMatMul: y[i] = op(x1[i]) @ op(x2[i]) with bool attributes adj_x1 / adj_x2
// (transpose of the last two dimensions), 3-D base-format operands; a batch of
// 1 broadcasts.
#include "aclop/declared_ops.h"
#include "aclop/format_shape.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

// The logical 2-D shape of a MatMulV2 operand and its dense ND data: the operand
// itself when it is ND, else a temporary unpacked from FRACTAL_NZ.
aclError MatrixOf(OpContext& ctx, const OpOperand& t, const char* name, std::vector<int64_t>* shape, void** data) {
  if (IsBaseFormat(t.format())) {
    *shape = t.shape();
    *data = t.data;
    return ACL_SUCCESS;
  }
  if (t.format() != ACL_FORMAT_FRACTAL_NZ) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s has storage format %s; MatMulV2 takes ND or FRACTAL_NZ", name,
                    FormatName(t.format()));
  }
  const std::vector<int64_t>& origin = t.desc->originDims;
  std::vector<int64_t> storage;
  std::string why;
  if (origin.size() != 2 || !InferStorageShape(ACL_FORMAT_FRACTAL_NZ, origin, t.dtype(), &storage, &why) ||
      storage != t.shape()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s is FRACTAL_NZ with origin shape %s and storage shape %s: expected a "
                    "2-D origin and its NZ storage shape%s%s", name, ShapeToString(origin).c_str(),
                    ShapeToString(t.shape()).c_str(), why.empty() ? "" : ": ", why.c_str());
  }
  *shape = origin;
  aclError rc = ctx.AllocTemp(static_cast<size_t>(origin[0] * origin[1]) * DataTypeSize(t.dtype()), data);
  if (rc != ACL_SUCCESS || origin[0] * origin[1] == 0) return rc;
  kernels::TransDataArgs args;
  args.kind = kernels::TransDataKind::kNzToNd;
  args.dtype = t.dtype();
  args.batch = 1;
  args.rows = origin[0];
  args.cols = origin[1];
  args.src = t.data;
  args.dst = *data;
  return kernels::LaunchTransData(args, ctx.stream());
}

}  // namespace

aclError RunMatMulV2(OpContext& ctx, const MatMulV2Attrs& attrs) {
  const OpOperand& x1 = ctx.inputs[0];
  const OpOperand& x2 = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  const bool hasBias = ctx.inputs.size() > 2;
  const bool t1 = attrs.transpose_x1;
  const bool t2 = attrs.transpose_x2;
  aclError rc = ACL_SUCCESS;
  std::vector<int64_t> s1, s2, sy;
  void* a = nullptr;
  void* b = nullptr;
  if ((rc = MatrixOf(ctx, x1, "input x1", &s1, &a)) != ACL_SUCCESS) return rc;
  if ((rc = MatrixOf(ctx, x2, "input x2", &s2, &b)) != ACL_SUCCESS) return rc;
  if (s1.size() != 2 || s2.size() != 2) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "inputs x1 %s and x2 %s must be 2-D", ShapeToString(s1).c_str(),
                    ShapeToString(s2).c_str());
  }
  const int64_t m = t1 ? s1[1] : s1[0];
  const int64_t k = t1 ? s1[0] : s1[1];
  const int64_t k2 = t2 ? s2[1] : s2[0];
  const int64_t n = t2 ? s2[0] : s2[1];
  if (k != k2) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM,
                    "x1 %s (transpose_x1=%d) and x2 %s (transpose_x2=%d) have different reduction sizes %lld and %lld",
                    ShapeToString(s1).c_str(), t1 ? 1 : 0, ShapeToString(s2).c_str(), t2 ? 1 : 0,
                    static_cast<long long>(k), static_cast<long long>(k2));
  }
  const bool nzOut = !IsBaseFormat(y.format());
  if (nzOut) {
    if (y.format() != ACL_FORMAT_FRACTAL_NZ) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has storage format %s; MatMulV2 takes ND or FRACTAL_NZ",
                      FormatName(y.format()));
    }
    sy = y.desc->originDims;
    std::vector<int64_t> storage;
    std::string why;
    if (sy != std::vector<int64_t>{m, n} || !InferStorageShape(ACL_FORMAT_FRACTAL_NZ, sy, y.dtype(), &storage, &why) ||
        storage != y.shape()) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y is FRACTAL_NZ with origin %s and storage %s, expected origin "
                      "[%lld, %lld] and its NZ storage shape", ShapeToString(sy).c_str(), ShapeToString(y.shape()).c_str(),
                      static_cast<long long>(m), static_cast<long long>(n));
    }
  } else if (y.shape() != std::vector<int64_t>{m, n}) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected [%lld, %lld]",
                    ShapeToString(y.shape()).c_str(), static_cast<long long>(m), static_cast<long long>(n));
  }
  if (hasBias) {
    const OpOperand& bias = ctx.inputs[2];
    if (!IsBaseFormat(bias.format()) || bias.shape() != std::vector<int64_t>{n}) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input bias is %s %s, expected an ND [%lld]", FormatName(bias.format()),
                      ShapeToString(bias.shape()).c_str(), static_cast<long long>(n));
    }
  }
  if (m * n == 0) return ACL_SUCCESS;
  void* c = y.data;
  if (nzOut && (rc = ctx.AllocTemp(static_cast<size_t>(m * n) * DataTypeSize(y.dtype()), &c)) != ACL_SUCCESS) return rc;
  kernels::MatmulArgs args;
  args.dtype = y.dtype();
  args.m = m;
  args.n = n;
  args.k = k;
  args.transA = t1;
  args.transB = t2;
  args.a = a;
  args.b = b;
  args.c = c;
  if (hasBias) {
    args.biasKind = kernels::MatmulBias::kBiasRow;
    args.bias = ctx.inputs[2].data;
  }
  if ((rc = kernels::LaunchMatmul(args, ctx.stream())) != ACL_SUCCESS || !nzOut) return rc;
  kernels::TransDataArgs pack;
  pack.kind = kernels::TransDataKind::kNdToNz;
  pack.dtype = y.dtype();
  pack.batch = 1;
  pack.rows = m;
  pack.cols = n;
  pack.src = c;
  pack.dst = y.data;
  return kernels::LaunchTransData(pack, ctx.stream());
}

aclError RunBatchMatMul(OpContext& ctx, const BatchMatMulAttrs& attrs) {
  const OpOperand& x1 = ctx.inputs[0];
  const OpOperand& x2 = ctx.inputs[1];
  const OpOperand& y = ctx.outputs[0];
  const bool t1 = attrs.adj_x1;
  const bool t2 = attrs.adj_x2;
  const std::vector<int64_t>& s1 = x1.shape();
  const std::vector<int64_t>& s2 = x2.shape();
  if (s1.size() != 3 || s2.size() != 3) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "inputs x1 %s and x2 %s must be 3-D", ShapeToString(s1).c_str(),
                    ShapeToString(s2).c_str());
  }
  const int64_t m = t1 ? s1[2] : s1[1];
  const int64_t k = t1 ? s1[1] : s1[2];
  const int64_t k2 = t2 ? s2[2] : s2[1];
  const int64_t n = t2 ? s2[1] : s2[2];
  const int64_t batch = s1[0] == 1 ? s2[0] : s1[0];
  if (k != k2 || (s1[0] != batch && s1[0] != 1) || (s2[0] != batch && s2[0] != 1)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "x1 %s (adj_x1=%d) and x2 %s (adj_x2=%d) cannot be multiplied",
                    ShapeToString(s1).c_str(), t1 ? 1 : 0, ShapeToString(s2).c_str(), t2 ? 1 : 0);
  }
  if (y.shape() != std::vector<int64_t>{batch, m, n}) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s, expected [%lld, %lld, %lld]",
                    ShapeToString(y.shape()).c_str(), static_cast<long long>(batch), static_cast<long long>(m),
                    static_cast<long long>(n));
  }
  if (batch * m * n == 0) return ACL_SUCCESS;
  kernels::MatmulArgs args;
  args.dtype = y.dtype();
  args.batch = static_cast<uint64_t>(batch);
  args.m = m;
  args.n = n;
  args.k = k;
  args.aBatchStride = s1[0] == 1 ? 0 : static_cast<uint64_t>(m * k);
  args.bBatchStride = s2[0] == 1 ? 0 : static_cast<uint64_t>(k * n);
  args.transA = t1;
  args.transB = t2;
  args.a = x1.data;
  args.b = x2.data;
  args.c = y.data;
  return kernels::LaunchMatmul(args, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
