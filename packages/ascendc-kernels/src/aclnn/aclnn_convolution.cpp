// aclnnConvolution / aclnnConvolutionBackward: convolution as im2col plus
// matrix products on the cube unit.
//
// Forward, per group g (Kg = C / G * KH * KW, L = OH * OW):
//   col [N, G, Kg (+1), L] = im2col(input)       (+1: a row of ones when there is a bias)
//   out[n, g] [Cout / G, L] = W_g [Cout / G, Kg (+1)] @ col[n, g]   (bias as W's last column)
// Backward:
//   gradInput  = col2im(W_g^T @ gradOutput[n, g])          (float32 accumulation)
//   gradWeight_g = sum over n of gradOutput[n, g] [Cout / G, L] @ col[n, g]^T [L, Kg]   (one summed matmul per g)
//   gradBias   = the sums of gradOutput over n and L (rows, then columns)
// Transposes and group interleaving are view-copies between workspace buffers.
#include "aclnnop/aclnn_convolution.h"

#include <string>
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

const std::initializer_list<aclDataType> kConvDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

struct ConvProblem {
  k::WindowGeometry g;
  int64_t groups = 1, cout = 0, kg = 0, L = 0;
  aclDataType dtype = ACL_DT_UNDEFINED;
  std::vector<int64_t> inputShape, weightShape, outputShape;  // as 4-D
};

aclnnStatus ReadPair(const char* api, const aclIntArray* a, const char* name, size_t spatial, int64_t low,
                     int64_t* first, int64_t* second) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, a, name)) != ACLNN_SUCCESS) return rc;
  if (a->values.size() != spatial && a->values.size() != 1) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s must have %zu values, got %zu", api, name, spatial,
                      a->values.size());
  }
  for (int64_t v : a->values) {
    if (v < low) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s values must be at least %lld, got %lld", api, name,
                        static_cast<long long>(low), static_cast<long long>(v));
    }
  }
  if (spatial == 1) {
    *first = low == 0 ? 0 : 1;  // the dummy height dimension
    *second = a->values[0];
  } else {
    *first = a->values[0];
    *second = a->values.size() == 2 ? a->values[1] : a->values[0];
  }
  return ACLNN_SUCCESS;
}

std::vector<int64_t> As4d(const std::vector<int64_t>& d) {
  if (d.size() == 3) return {d[0], d[1], 1, d[2]};
  return d;
}

// Checks the geometry shared by forward and backward; `output` is the output (or gradOutput) tensor.
aclnnStatus Describe(const char* api, const aclTensor* input, const aclTensor* weight, const aclIntArray* stride,
                     const aclIntArray* padding, const aclIntArray* dilation, bool transposed, int64_t groups,
                     const aclTensor* output, const char* outputName, ConvProblem* p) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, input, "input")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, weight, "weight")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, output, outputName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, input, "input", kConvDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, weight, "weight", kConvDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, output, outputName, kConvDtypes)) != ACLNN_SUCCESS) return rc;
  if (transposed) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: transposed convolution is not supported by this device", api);
  }
  if (weight->dtype != input->dtype || output->dtype != input->dtype) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: input, weight and %s must have the same dtype, got %s, %s and %s",
                      api, outputName, DataTypeName(input->dtype), DataTypeName(weight->dtype),
                      DataTypeName(output->dtype));
  }
  const size_t rank = input->viewDims.size();
  if ((rank != 3 && rank != 4) || weight->viewDims.size() != rank) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: input %s and weight %s must both be 3-D or 4-D", api,
                      ShapeToString(input->viewDims).c_str(), ShapeToString(weight->viewDims).c_str());
  }
  const size_t spatial = rank - 2;
  k::WindowGeometry& g = p->g;
  if ((rc = ReadPair(api, stride, "stride", spatial, 1, &g.sh, &g.sw)) != ACLNN_SUCCESS) return rc;
  if ((rc = ReadPair(api, padding, "padding", spatial, 0, &g.ph, &g.pw)) != ACLNN_SUCCESS) return rc;
  if ((rc = ReadPair(api, dilation, "dilation", spatial, 1, &g.dh, &g.dw)) != ACLNN_SUCCESS) return rc;
  p->inputShape = As4d(input->viewDims);
  p->weightShape = As4d(weight->viewDims);
  g.batch = p->inputShape[0];
  g.channels = p->inputShape[1];
  g.h = p->inputShape[2];
  g.w = p->inputShape[3];
  g.kh = p->weightShape[2];
  g.kw = p->weightShape[3];
  p->cout = p->weightShape[0];
  if (groups <= 0 || g.channels % groups != 0 || p->cout % groups != 0 || g.channels == 0 ||
      p->weightShape[1] * groups != g.channels) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID,
                      "%s: weight %s does not fit input %s in %lld groups (input channels must be positive and "
                      "divisible by groups)", api, ShapeToString(weight->viewDims).c_str(),
                      ShapeToString(input->viewDims).c_str(), static_cast<long long>(groups));
  }
  const int64_t eh = g.dh * (g.kh - 1) + 1, ew = g.dw * (g.kw - 1) + 1;
  if (g.h + 2 * g.ph < eh || g.w + 2 * g.pw < ew) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: the padded input %s is smaller than the dilated kernel", api,
                      ShapeToString(input->viewDims).c_str());
  }
  g.outH = (g.h + 2 * g.ph - eh) / g.sh + 1;
  g.outW = (g.w + 2 * g.pw - ew) / g.sw + 1;
  p->outputShape = {g.batch, p->cout, g.outH, g.outW};
  std::vector<int64_t> expected = p->outputShape;
  if (rank == 3) expected = {g.batch, p->cout, g.outW};
  if (output->viewDims != expected) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape %s, expected %s", api, outputName,
                      ShapeToString(output->viewDims).c_str(), ShapeToString(expected).c_str());
  }
  p->groups = groups;
  p->kg = g.channels / groups * g.kh * g.kw;
  p->L = g.outH * g.outW;
  p->dtype = input->dtype;
  return ACLNN_SUCCESS;
}

size_t Bytes(aclDataType dtype, int64_t elements) {
  return static_cast<size_t>(elements) * ascendc_sim::DataTypeSize(dtype);
}

// dst (dense, strides `dstStrides` over `shape`) = src viewed with `srcStrides`, both workspace/dense buffers.
void CopyStrided(ExecutorBuilder& plan, const DenseBuffer& src, const std::vector<int64_t>& srcStrides,
                 const DenseBuffer& dst, const std::vector<int64_t>& dstStrides, const std::vector<int64_t>& shape,
                 int64_t dstOffset = 0) {
  k::ViewCopyArgs args;
  args.ndim = static_cast<int32_t>(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) {
    args.shape[i] = shape[i];
    args.src.strides[i] = srcStrides[i];
    args.dst.strides[i] = dstStrides[i];
  }
  args.src.dtype = src.dtype;
  args.dst.dtype = dst.dtype;
  args.dst.offset = dstOffset;
  plan.AddStep([args, src, dst](uint8_t* ws, aclrtStream stream) mutable {
    args.src.data = src.Resolve(ws);
    args.dst.data = dst.Resolve(ws);
    return k::LaunchViewCopy(args, stream);
  });
}

// The matmul of `shape` on a, b and c at element offsets into their buffers.
void AddMatmul(ExecutorBuilder& plan, const k::MatmulArgs& shape, const DenseBuffer& a, int64_t aOffset,
               const DenseBuffer& b, int64_t bOffset, const DenseBuffer& c, int64_t cOffset) {
  plan.AddStep([a, b, c, shape, aOffset, bOffset, cOffset](uint8_t* ws, aclrtStream stream) {
    k::MatmulArgs args = shape;
    args.a = static_cast<uint8_t*>(a.Resolve(ws)) + Bytes(shape.dtype, aOffset);
    args.b = static_cast<uint8_t*>(b.Resolve(ws)) + Bytes(shape.dtype, bOffset);
    args.c = static_cast<uint8_t*>(c.Resolve(ws)) + Bytes(shape.floatOutput ? ACL_FLOAT : shape.dtype, cOffset);
    return k::LaunchMatmul(args, stream);
  });
}

k::MatmulArgs MatmulShape(aclDataType dtype, uint64_t batch, int64_t m, int64_t kk, int64_t n, uint64_t aStride,
                          uint64_t bStride) {
  k::MatmulArgs shape;
  shape.dtype = dtype;
  shape.batch = batch;
  shape.m = m;
  shape.n = n;
  shape.k = kk;
  shape.aBatchStride = aStride;
  shape.bBatchStride = bStride;
  return shape;
}

// c = a @ b for `batch` products at element offsets, with batch strides (c dense per batch; float32
// with floatOutput, else of dtype).
void Matmul(ExecutorBuilder& plan, aclDataType dtype, const DenseBuffer& a, int64_t aOffset, uint64_t aStride,
            const DenseBuffer& b, int64_t bOffset, uint64_t bStride, const DenseBuffer& c, int64_t cOffset,
            uint64_t batch, int64_t m, int64_t kk, int64_t n, bool floatOutput = false) {
  k::MatmulArgs shape = MatmulShape(dtype, batch, m, kk, n, aStride, bStride);
  shape.floatOutput = floatOutput;
  AddMatmul(plan, shape, a, aOffset, b, bOffset, c, cOffset);
}

// c [m, n] = the sum over `batch` of a[i] [m, kk] @ b[i]^T (b[i] stored [n, kk]), at element offsets.
void MatmulSummed(ExecutorBuilder& plan, aclDataType dtype, const DenseBuffer& a, int64_t aOffset, uint64_t aStride,
                  const DenseBuffer& b, int64_t bOffset, uint64_t bStride, const DenseBuffer& c, int64_t cOffset,
                  uint64_t batch, int64_t m, int64_t kk, int64_t n) {
  k::MatmulArgs shape = MatmulShape(dtype, batch, m, kk, n, aStride, bStride);
  shape.transB = true;
  shape.sumBatch = true;
  AddMatmul(plan, shape, a, aOffset, b, bOffset, c, cOffset);
}

void Fill(ExecutorBuilder& plan, const DenseBuffer& y, int64_t n, double value) {
  plan.AddStep([y, n, value](uint8_t* ws, aclrtStream stream) {
    return k::LaunchFill(y.dtype, y.Resolve(ws), static_cast<uint64_t>(n), k::ScalarValue::Floating(value), stream);
  });
}

aclnnStatus CheckCubeMathType(const char* api, int8_t cubeMathType) {
  if (cubeMathType < 0 || cubeMathType > 3) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: cubeMathType %d is not one of 0..3", api,
                      static_cast<int>(cubeMathType));
  }
  return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                                             const aclIntArray* stride, const aclIntArray* padding,
                                             const aclIntArray* dilation, bool transposed,
                                             const aclIntArray* outputPadding, int64_t groups, aclTensor* output,
                                             int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnConvolution";
  (void)outputPadding;  // only meaningful for transposed convolution
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckCubeMathType(api, cubeMathType)) != ACLNN_SUCCESS) return rc;
  ConvProblem p;
  rc = Describe(api, input, weight, stride, padding, dilation, transposed, groups, output, "output", &p);
  if (rc != ACLNN_SUCCESS) return rc;
  if (bias != nullptr) {
    if ((rc = CheckTensor(api, bias, "bias", kConvDtypes)) != ACLNN_SUCCESS) return rc;
    if (bias->dtype != p.dtype || bias->viewDims != std::vector<int64_t>{p.cout}) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: bias must be [%lld] of %s, got %s of %s", api,
                        static_cast<long long>(p.cout), DataTypeName(p.dtype), ShapeToString(bias->viewDims).c_str(),
                        DataTypeName(bias->dtype));
    }
  }
  ExecutorBuilder plan(api);
  if (output->Numel() > 0) {
    const k::WindowGeometry& g = p.g;
    const int64_t G = p.groups, coutg = p.cout / G, ka = p.kg + (bias != nullptr ? 1 : 0), L = p.L;
    const DenseBuffer x = plan.Input(input, "input", input->viewDims, p.dtype);
    DenseBuffer w = plan.Input(weight, "weight", weight->viewDims, p.dtype);  // [G, coutg, kg]
    if (bias != nullptr) {  // wa [G, coutg, kg + 1]: the weight with the bias as its last column
      const DenseBuffer b = plan.Input(bias, "bias", bias->viewDims, p.dtype);
      const DenseBuffer wa = plan.Scratch(p.cout * ka, p.dtype);
      CopyStrided(plan, w, {p.kg, 1}, wa, {ka, 1}, {p.cout, p.kg});
      CopyStrided(plan, b, {1, 0}, wa, {ka, 1}, {p.cout, 1}, p.kg);
      w = wa;
    }
    const DenseBuffer col = plan.Scratch(g.batch * G * ka * L, p.dtype);
    k::Im2colArgs im;
    im.dtype = p.dtype;
    im.g = g;
    im.groups = G;
    im.ones = bias != nullptr;
    plan.AddStep([im, x, col](uint8_t* ws, aclrtStream stream) {
      k::Im2colArgs args = im;
      args.x = x.Resolve(ws);
      args.col = col.Resolve(ws);
      return k::LaunchIm2col(args, stream);
    });
    const DenseBuffer y = plan.Output(output, "output", p.dtype);  // [N, G, coutg, L]
    if (G == 1) {
      Matmul(plan, p.dtype, w, 0, 0, col, 0, static_cast<uint64_t>(ka * L), y, 0, static_cast<uint64_t>(g.batch),
             coutg, ka, L);
    } else {  // per group into [G, N, coutg, L], then interleaved into y
      const DenseBuffer tmp = plan.Scratch(G * g.batch * coutg * L, p.dtype);
      for (int64_t grp = 0; grp < G; ++grp) {
        Matmul(plan, p.dtype, w, grp * coutg * ka, 0, col, grp * ka * L, static_cast<uint64_t>(G * ka * L), tmp,
               grp * g.batch * coutg * L, static_cast<uint64_t>(g.batch), coutg, ka, L);
      }
      CopyStrided(plan, tmp, {g.batch * coutg * L, coutg * L, L, 1}, y, {coutg * L, p.cout * L, L, 1},
                  {G, g.batch, coutg, L});
    }
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnConvolution(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnConvolution", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* input, const aclTensor* weight, const aclIntArray* biasSizes,
    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool transposed,
    const aclIntArray* outputPadding, int64_t groups, const aclBoolArray* outputMask, int8_t cubeMathType,
    aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  const char* api = "aclnnConvolutionBackward";
  (void)outputPadding;
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, outputMask, "outputMask")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckCubeMathType(api, cubeMathType)) != ACLNN_SUCCESS) return rc;
  if (outputMask->values.size() != 3) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: outputMask must have 3 values, got %zu", api,
                      outputMask->values.size());
  }
  ConvProblem p;
  rc = Describe(api, input, weight, stride, padding, dilation, transposed, groups, gradOutput, "gradOutput", &p);
  if (rc != ACLNN_SUCCESS) return rc;
  const bool wantInput = outputMask->values[0] != 0, wantWeight = outputMask->values[1] != 0,
             wantBias = outputMask->values[2] != 0;
  struct Wanted {
    bool want;
    aclTensor* t;
    const char* name;
    std::vector<int64_t> shape;
  };
  const Wanted wanted[3] = {{wantInput, gradInput, "gradInput", input->viewDims},
                            {wantWeight, gradWeight, "gradWeight", weight->viewDims},
                            {wantBias, gradBias, "gradBias", {p.cout}}};
  for (const Wanted& w : wanted) {
    if (!w.want) continue;
    if ((rc = CheckNotNull(api, w.t, w.name)) != ACLNN_SUCCESS) return rc;
    if ((rc = CheckTensor(api, w.t, w.name, kConvDtypes)) != ACLNN_SUCCESS) return rc;
    if (w.t->viewDims != w.shape || w.t->dtype != p.dtype) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s must be %s of %s, got %s of %s", api, w.name,
                        ShapeToString(w.shape).c_str(), DataTypeName(p.dtype), ShapeToString(w.t->viewDims).c_str(),
                        DataTypeName(w.t->dtype));
    }
  }
  if (wantBias && biasSizes != nullptr && biasSizes->values != std::vector<int64_t>{p.cout}) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: biasSizes must be [%lld]", api, static_cast<long long>(p.cout));
  }
  ExecutorBuilder plan(api);
  const k::WindowGeometry& g = p.g;
  const int64_t G = p.groups, coutg = p.cout / G, kg = p.kg, L = p.L, N = g.batch;
  const bool empty = gradOutput->Numel() == 0;
  DenseBuffer go;
  if (!empty) go = plan.Input(gradOutput, "gradOutput", gradOutput->viewDims, p.dtype);  // [N, G, coutg, L]
  if (wantInput && gradInput->Numel() > 0) {
    const DenseBuffer gi = plan.Output(gradInput, "gradInput", ACL_FLOAT);  // col2im accumulates in float32
    if (empty) {
      Fill(plan, gi, gradInput->Numel(), 0.0);
    } else {
      const DenseBuffer w = plan.Input(weight, "weight", weight->viewDims, p.dtype);  // [G, coutg, kg]
      const DenseBuffer wT = plan.Scratch(p.cout * kg, p.dtype);                      // [G, kg, coutg]
      CopyStrided(plan, w, {coutg * kg, kg, 1}, wT, {coutg * kg, 1, coutg}, {G, coutg, kg});
      // [N, G, kg, L]: bfloat16 products stay float32 for col2im's sums (CPU accumulates them in float32),
      // float16 ones are rounded first as CPU's float16 path rounds its column buffer
      const bool unrounded = p.dtype != ACL_FLOAT16;
      const aclDataType colType = unrounded ? ACL_FLOAT : p.dtype;
      const DenseBuffer colGrad = plan.Scratch(N * G * kg * L, colType);
      if (G == 1) {
        Matmul(plan, p.dtype, wT, 0, 0, go, 0, static_cast<uint64_t>(p.cout * L), colGrad, 0,
               static_cast<uint64_t>(N), kg, coutg, L, unrounded);
      } else {
        const DenseBuffer tmp = plan.Scratch(G * N * kg * L, colType);  // [G, N, kg, L]
        for (int64_t grp = 0; grp < G; ++grp) {
          Matmul(plan, p.dtype, wT, grp * kg * coutg, 0, go, grp * coutg * L, static_cast<uint64_t>(p.cout * L), tmp,
                 grp * N * kg * L, static_cast<uint64_t>(N), kg, coutg, L, unrounded);
        }
        CopyStrided(plan, tmp, {N * kg * L, kg * L, L, 1}, colGrad, {kg * L, G * kg * L, L, 1}, {G, N, kg, L});
      }
      k::Col2imArgs c2i;
      c2i.dtype = colType;
      c2i.g = g;
      plan.AddStep([c2i, colGrad, gi](uint8_t* ws, aclrtStream stream) {
        k::Col2imArgs args = c2i;
        args.col = colGrad.Resolve(ws);
        args.x = gi.Resolve(ws);
        return k::LaunchCol2im(args, stream);
      });
    }
  }
  if (wantWeight && gradWeight->Numel() > 0) {
    const DenseBuffer gw = plan.Output(gradWeight, "gradWeight", p.dtype);  // [G, coutg, kg]
    if (empty) {
      Fill(plan, gw, gradWeight->Numel(), 0.0);
    } else {
      const DenseBuffer x = plan.Input(input, "input", input->viewDims, p.dtype);
      const DenseBuffer col = plan.Scratch(N * G * kg * L, p.dtype);  // [N, G, kg, L]
      k::Im2colArgs im;
      im.dtype = p.dtype;
      im.g = g;
      im.groups = G;
      plan.AddStep([im, x, col](uint8_t* ws, aclrtStream stream) {
        k::Im2colArgs args = im;
        args.x = x.Resolve(ws);
        args.col = col.Resolve(ws);
        return k::LaunchIm2col(args, stream);
      });
      for (int64_t grp = 0; grp < G; ++grp) {  // gw_g = sum over n of go[n, g] @ col[n, g]^T
        MatmulSummed(plan, p.dtype, go, grp * coutg * L, static_cast<uint64_t>(p.cout * L), col, grp * kg * L,
                     static_cast<uint64_t>(G * kg * L), gw, grp * coutg * kg, static_cast<uint64_t>(N), coutg, L, kg);
      }
    }
  }
  if (wantBias && gradBias->Numel() > 0) {
    const DenseBuffer gb = plan.Output(gradBias, "gradBias", p.dtype);
    if (empty) {
      Fill(plan, gb, p.cout, 0.0);
    } else {  // the sums of go's rows [N * Cout, L], then of their columns [N, Cout], in float32
      const DenseBuffer rowSums = plan.Scratch(N * p.cout, ACL_FLOAT);
      plan.AddStep([go, rowSums, gb, N, L, cout = p.cout](uint8_t* ws, aclrtStream stream) {
        aclError rc = k::LaunchRowReduce(go.dtype, go.Resolve(ws), ACL_FLOAT, rowSums.Resolve(ws),
                                         static_cast<uint64_t>(N * cout), static_cast<uint64_t>(L),
                                         k::RowReduceOp::kSum, stream);
        if (rc != ACL_SUCCESS) return rc;
        return k::LaunchColumnSum(ACL_FLOAT, rowSums.Resolve(ws), gb.dtype, gb.Resolve(ws), static_cast<uint64_t>(N),
                                  static_cast<uint64_t>(cout), stream);
      });
    }
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnConvolutionBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnConvolutionBackward", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
