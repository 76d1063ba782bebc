// aclnnConvolution / aclnnConvolutionBackward: 1-, 2- and 3-D convolution, plain or
// transposed, as im2col plus matrix products on the cube unit.
//
// Everything is phrased in terms of a plain convolution from an "image" X [N, C, D, H, W]
// to a "result" Y [N, Cout, L] (L = OD * OH * OW) with the weight W [Cout, C / G, k...]
// (Kg = C / G * KD * KH * KW). Plain: X = input, Y = output. Transposed (the input gradient
// of a plain convolution): X = output, Y = input, and W [Cin, Cout / G, k...] is that one's weight.
//   Convolution:  col [N, G, Kg (+1), L] = im2col(X);  Y[n, g] = W_g @ col[n, g]  (bias as W's last column)
//   DataGradient: X = col2im(W_g^T @ Y[n, g])  (float32 accumulation, an optional bias added last)
//   WeightGradient: W_g = sum over n of Y[n, g] [Cout / G, L] @ im2col(X)[n, g]^T  (one summed matmul per g)
// Forward: plain = Convolution(input) (+ bias); transposed = DataGradient(input) + bias.
// Backward: plain: gradInput = DataGradient(gradOutput), gradWeight = WeightGradient(gradOutput, input);
// transposed: gradInput = Convolution(gradOutput), gradWeight = WeightGradient(input, gradOutput);
// gradBias = gradOutput's sums (rows, then columns) either way.
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

// A plain convolution from the image X to the result Y (see the top of the file).
struct ConvProblem {
  k::WindowGeometry g;
  int64_t groups = 1, cout = 0, kg = 0, L = 0;
  bool transposed = false;
  aclDataType dtype = ACL_DT_UNDEFINED;
};

// The spatial values of `a` as (depth, height, width), the missing leading ones `fill`.
aclnnStatus ReadSpatial(const char* api, const aclIntArray* a, const char* name, size_t spatial, int64_t low,
                        int64_t fill, int64_t out[3]) {
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
  for (size_t i = 0; i < 3; ++i) {
    const size_t first = 3 - spatial;  // the dummy dimensions of 1-D and 2-D
    out[i] = i < first ? fill : a->values[a->values.size() == 1 ? 0 : i - first];
  }
  return ACLNN_SUCCESS;
}

// `dims` [N, C, spatial...] as [N, C, D, H, W].
std::vector<int64_t> As5d(const std::vector<int64_t>& dims) {
  std::vector<int64_t> out = {dims[0], dims[1]};
  for (size_t i = dims.size(); i < 5; ++i) out.push_back(1);
  out.insert(out.end(), dims.begin() + 2, dims.end());
  return out;
}

// Checks the geometry shared by forward and backward; `output` is the output (or gradOutput) tensor.
aclnnStatus Describe(const char* api, const aclTensor* input, const aclTensor* weight, const aclIntArray* stride,
                     const aclIntArray* padding, const aclIntArray* dilation, bool transposed,
                     const aclIntArray* outputPadding, int64_t groups, const aclTensor* output,
                     const char* outputName, ConvProblem* p) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, input, "input")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, weight, "weight")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, output, outputName)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, input, "input", kConvDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, weight, "weight", kConvDtypes)) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckTensor(api, output, outputName, kConvDtypes)) != ACLNN_SUCCESS) return rc;
  if (weight->dtype != input->dtype || output->dtype != input->dtype) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: input, weight and %s must have the same dtype, got %s, %s and %s",
                      api, outputName, DataTypeName(input->dtype), DataTypeName(weight->dtype),
                      DataTypeName(output->dtype));
  }
  const size_t rank = input->viewDims.size();
  if (rank < 3 || rank > 5 || weight->viewDims.size() != rank) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: input %s and weight %s must both be 3-D, 4-D or 5-D", api,
                      ShapeToString(input->viewDims).c_str(), ShapeToString(weight->viewDims).c_str());
  }
  const size_t spatial = rank - 2;
  int64_t s[3], pad[3], dil[3], outPad[3] = {0, 0, 0};
  if ((rc = ReadSpatial(api, stride, "stride", spatial, 1, 1, s)) != ACLNN_SUCCESS) return rc;
  if ((rc = ReadSpatial(api, padding, "padding", spatial, 0, 0, pad)) != ACLNN_SUCCESS) return rc;
  if ((rc = ReadSpatial(api, dilation, "dilation", spatial, 1, 1, dil)) != ACLNN_SUCCESS) return rc;
  if (transposed) {
    if ((rc = ReadSpatial(api, outputPadding, "outputPadding", spatial, 0, 0, outPad)) != ACLNN_SUCCESS) return rc;
    for (size_t i = 0; i < 3; ++i) {
      if (outPad[i] >= s[i] && outPad[i] >= dil[i]) {
        return RaiseError(ACLNN_ERR_PARAM_INVALID,
                          "%s: outputPadding must be smaller than stride or dilation, got outputPadding %lld, "
                          "stride %lld, dilation %lld", api, static_cast<long long>(outPad[i]),
                          static_cast<long long>(s[i]), static_cast<long long>(dil[i]));
      }
    }
  }
  const std::vector<int64_t> in = As5d(input->viewDims), w = As5d(weight->viewDims);
  // The channels of the image X and of the result Y (see the top of the file).
  const int64_t imageChannels = transposed ? w[1] * groups : input->viewDims[1];
  const int64_t cout = transposed ? input->viewDims[1] : w[0];
  if (groups <= 0 || in[1] == 0 || w[0] % groups != 0 || (transposed ? w[0] != in[1] : w[1] * groups != in[1])) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID,
                      "%s: weight %s does not fit input %s in %lld groups (input channels must be positive and "
                      "divisible by groups)", api, ShapeToString(weight->viewDims).c_str(),
                      ShapeToString(input->viewDims).c_str(), static_cast<long long>(groups));
  }
  k::WindowGeometry& g = p->g;
  g.batch = in[0];
  g.channels = imageChannels;
  g.kd = w[2], g.kh = w[3], g.kw = w[4];
  g.sd = s[0], g.sh = s[1], g.sw = s[2];
  g.pd = pad[0], g.ph = pad[1], g.pw = pad[2];
  g.dd = dil[0], g.dh = dil[1], g.dw = dil[2];
  int64_t image[3], result[3];
  for (size_t i = 0; i < 3; ++i) {
    const int64_t extent = dil[i] * (w[2 + i] - 1) + 1;
    if (transposed) {
      result[i] = in[2 + i];
      image[i] = (in[2 + i] - 1) * s[i] - 2 * pad[i] + extent + outPad[i];
      if (image[i] <= 0) {
        return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: the output of input %s with this weight, stride, padding "
                          "and dilation would be empty", api, ShapeToString(input->viewDims).c_str());
      }
    } else {
      image[i] = in[2 + i];
      if (in[2 + i] + 2 * pad[i] < extent) {
        return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: the padded input %s is smaller than the dilated kernel", api,
                          ShapeToString(input->viewDims).c_str());
      }
      result[i] = (in[2 + i] + 2 * pad[i] - extent) / s[i] + 1;
    }
  }
  g.d = image[0], g.h = image[1], g.w = image[2];
  g.outD = result[0], g.outH = result[1], g.outW = result[2];
  std::vector<int64_t> expected = {g.batch, transposed ? imageChannels : cout};
  const int64_t* sizes = transposed ? image : result;
  expected.insert(expected.end(), sizes + (3 - spatial), sizes + 3);
  if (output->viewDims != expected) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape %s, expected %s", api, outputName,
                      ShapeToString(output->viewDims).c_str(), ShapeToString(expected).c_str());
  }
  p->groups = groups;
  p->cout = cout;
  p->kg = g.channels / groups * g.kd * g.kh * g.kw;
  p->L = g.outD * g.outH * g.outW;
  p->transposed = transposed;
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

void AddIm2col(ExecutorBuilder& plan, const ConvProblem& p, const DenseBuffer& image, const DenseBuffer& col,
               bool ones) {
  k::Im2colArgs im;
  im.dtype = p.dtype;
  im.g = p.g;
  im.groups = p.groups;
  im.ones = ones;
  plan.AddStep([im, image, col](uint8_t* ws, aclrtStream stream) {
    k::Im2colArgs args = im;
    args.x = image.Resolve(ws);
    args.col = col.Resolve(ws);
    return k::LaunchIm2col(args, stream);
  });
}

// result [N, G, coutg, L] (of the problem's dtype) = W_g @ im2col(image) (+ bias, of the dtype, [cout]).
void AddConvolution(ExecutorBuilder& plan, const ConvProblem& p, const DenseBuffer& image, DenseBuffer w,
                    const DenseBuffer* bias, const DenseBuffer& result) {
  const int64_t G = p.groups, coutg = p.cout / G, ka = p.kg + (bias != nullptr ? 1 : 0), L = p.L, N = p.g.batch;
  if (bias != nullptr) {  // wa [G, coutg, kg + 1]: the weight with the bias as its last column
    const DenseBuffer wa = plan.Scratch(p.cout * ka, p.dtype);
    CopyStrided(plan, w, {p.kg, 1}, wa, {ka, 1}, {p.cout, p.kg});
    CopyStrided(plan, *bias, {1, 0}, wa, {ka, 1}, {p.cout, 1}, p.kg);
    w = wa;
  }
  const DenseBuffer col = plan.Scratch(N * G * ka * L, p.dtype);
  AddIm2col(plan, p, image, col, bias != nullptr);
  if (G == 1) {
    Matmul(plan, p.dtype, w, 0, 0, col, 0, static_cast<uint64_t>(ka * L), result, 0, static_cast<uint64_t>(N), coutg,
           ka, L);
  } else {  // per group into [G, N, coutg, L], then interleaved into the result
    const DenseBuffer tmp = plan.Scratch(G * N * coutg * L, p.dtype);
    for (int64_t grp = 0; grp < G; ++grp) {
      Matmul(plan, p.dtype, w, grp * coutg * ka, 0, col, grp * ka * L, static_cast<uint64_t>(G * ka * L), tmp,
             grp * N * coutg * L, static_cast<uint64_t>(N), coutg, ka, L);
    }
    CopyStrided(plan, tmp, {N * coutg * L, coutg * L, L, 1}, result, {coutg * L, p.cout * L, L, 1},
                {G, N, coutg, L});
  }
}

// image [N, C, D, H, W] (float32) = col2im(W_g^T @ result[n, g]) (+ biasF, float32 [C]).
void AddDataGradient(ExecutorBuilder& plan, const ConvProblem& p, const DenseBuffer& result, const DenseBuffer& w,
                     const DenseBuffer* biasF, const DenseBuffer& image) {
  const int64_t G = p.groups, coutg = p.cout / G, kg = p.kg, L = p.L, N = p.g.batch;
  const DenseBuffer wT = plan.Scratch(p.cout * kg, p.dtype);  // [G, kg, coutg]
  CopyStrided(plan, w, {coutg * kg, kg, 1}, wT, {coutg * kg, 1, coutg}, {G, coutg, kg});
  // [N, G, kg, L]: bfloat16 products stay float32 for col2im's sums (CPU accumulates them in float32),
  // float16 ones are rounded first as CPU's float16 path rounds its column buffer
  const bool unrounded = p.dtype != ACL_FLOAT16;
  const aclDataType colType = unrounded ? ACL_FLOAT : p.dtype;
  const DenseBuffer colGrad = plan.Scratch(N * G * kg * L, colType);
  if (G == 1) {
    Matmul(plan, p.dtype, wT, 0, 0, result, 0, static_cast<uint64_t>(p.cout * L), colGrad, 0,
           static_cast<uint64_t>(N), kg, coutg, L, unrounded);
  } else {
    const DenseBuffer tmp = plan.Scratch(G * N * kg * L, colType);  // [G, N, kg, L]
    for (int64_t grp = 0; grp < G; ++grp) {
      Matmul(plan, p.dtype, wT, grp * kg * coutg, 0, result, grp * coutg * L, static_cast<uint64_t>(p.cout * L), tmp,
             grp * N * kg * L, static_cast<uint64_t>(N), kg, coutg, L, unrounded);
    }
    CopyStrided(plan, tmp, {N * kg * L, kg * L, L, 1}, colGrad, {kg * L, G * kg * L, L, 1}, {G, N, kg, L});
  }
  k::Col2imArgs c2i;
  c2i.dtype = colType;
  c2i.g = p.g;
  const DenseBuffer bias = biasF != nullptr ? *biasF : DenseBuffer();
  const bool hasBias = biasF != nullptr;
  plan.AddStep([c2i, colGrad, image, bias, hasBias](uint8_t* ws, aclrtStream stream) {
    k::Col2imArgs args = c2i;
    args.col = colGrad.Resolve(ws);
    args.x = image.Resolve(ws);
    if (hasBias) args.bias = static_cast<const float*>(bias.Resolve(ws));
    return k::LaunchCol2im(args, stream);
  });
}

// gw [G, coutg, kg] = the sum over n of result[n, g] @ im2col(image)[n, g]^T.
void AddWeightGradient(ExecutorBuilder& plan, const ConvProblem& p, const DenseBuffer& result,
                       const DenseBuffer& image, const DenseBuffer& gw) {
  const int64_t G = p.groups, coutg = p.cout / G, kg = p.kg, L = p.L, N = p.g.batch;
  const DenseBuffer col = plan.Scratch(N * G * kg * L, p.dtype);  // [N, G, kg, L]
  AddIm2col(plan, p, image, col, false);
  for (int64_t grp = 0; grp < G; ++grp) {
    MatmulSummed(plan, p.dtype, result, grp * coutg * L, static_cast<uint64_t>(p.cout * L), col, grp * kg * L,
                 static_cast<uint64_t>(G * kg * L), gw, grp * coutg * kg, static_cast<uint64_t>(N), coutg, L, kg);
  }
}

// gb [channels] = the sums of src [N, channels, positions]: of its rows, then of their columns, in float32.
void AddChannelSums(ExecutorBuilder& plan, const DenseBuffer& src, int64_t N, int64_t channels, int64_t positions,
                    const DenseBuffer& gb) {
  const DenseBuffer rowSums = plan.Scratch(N * channels, ACL_FLOAT);
  plan.AddStep([src, rowSums, gb, N, channels, positions](uint8_t* ws, aclrtStream stream) {
    aclError rc = k::LaunchRowReduce(src.dtype, src.Resolve(ws), ACL_FLOAT, rowSums.Resolve(ws),
                                     static_cast<uint64_t>(N * channels), static_cast<uint64_t>(positions),
                                     k::RowReduceOp::kSum, stream);
    if (rc != ACL_SUCCESS) return rc;
    return k::LaunchColumnSum(ACL_FLOAT, rowSums.Resolve(ws), gb.dtype, gb.Resolve(ws), static_cast<uint64_t>(N),
                              static_cast<uint64_t>(channels), stream);
  });
}

}  // namespace

extern "C" {

aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                                             const aclIntArray* stride, const aclIntArray* padding,
                                             const aclIntArray* dilation, bool transposed,
                                             const aclIntArray* outputPadding, int64_t groups, aclTensor* output,
                                             int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnConvolution";
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckCubeMathType(api, cubeMathType)) != ACLNN_SUCCESS) return rc;
  ConvProblem p;
  rc = Describe(api, input, weight, stride, padding, dilation, transposed, outputPadding, groups, output, "output",
                &p);
  if (rc != ACLNN_SUCCESS) return rc;
  const int64_t outChannels = output->viewDims[1];
  if (bias != nullptr) {
    if ((rc = CheckTensor(api, bias, "bias", kConvDtypes)) != ACLNN_SUCCESS) return rc;
    if (bias->dtype != p.dtype || bias->viewDims != std::vector<int64_t>{outChannels}) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: bias must be [%lld] of %s, got %s of %s", api,
                        static_cast<long long>(outChannels), DataTypeName(p.dtype),
                        ShapeToString(bias->viewDims).c_str(), DataTypeName(bias->dtype));
    }
  }
  ExecutorBuilder plan(api);
  if (output->Numel() > 0) {
    const DenseBuffer x = plan.Input(input, "input", input->viewDims, p.dtype);
    const DenseBuffer w = plan.Input(weight, "weight", weight->viewDims, p.dtype);  // [G, coutg, kg]
    if (!p.transposed) {
      const DenseBuffer y = plan.Output(output, "output", p.dtype);  // [N, G, coutg, L]
      if (bias != nullptr) {
        const DenseBuffer b = plan.Input(bias, "bias", bias->viewDims, p.dtype);
        AddConvolution(plan, p, x, w, &b, y);
      } else {
        AddConvolution(plan, p, x, w, nullptr, y);
      }
    } else {
      const DenseBuffer y = plan.Output(output, "output", ACL_FLOAT);  // col2im accumulates in float32
      const DenseBuffer biasF = bias != nullptr ? plan.Input(bias, "bias", bias->viewDims, ACL_FLOAT) : DenseBuffer();
      if (input->Numel() == 0) {  // every output element is its channel's bias
        const DenseBuffer zero = plan.Scratch(1, ACL_FLOAT);
        Fill(plan, zero, 1, 0.0);
        const std::vector<int64_t> shape = {p.g.batch, outChannels, p.g.d * p.g.h * p.g.w};
        CopyStrided(plan, bias != nullptr ? biasF : zero, {0, bias != nullptr ? 1 : 0, 0}, y,
                    {outChannels * shape[2], shape[2], 1}, shape);
      } else {
        AddDataGradient(plan, p, x, w, bias != nullptr ? &biasF : nullptr, y);
      }
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
  rc = Describe(api, input, weight, stride, padding, dilation, transposed, outputPadding, groups, gradOutput,
                "gradOutput", &p);
  if (rc != ACLNN_SUCCESS) return rc;
  const int64_t outChannels = gradOutput->viewDims[1];
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
                            {wantBias, gradBias, "gradBias", {outChannels}}};
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
  if (wantBias && biasSizes != nullptr && biasSizes->values != std::vector<int64_t>{outChannels}) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: biasSizes must be [%lld]", api,
                      static_cast<long long>(outChannels));
  }
  ExecutorBuilder plan(api);
  // The image X and the result Y of the plain convolution (see the top of the file).
  const aclTensor* imageT = p.transposed ? gradOutput : input;
  const aclTensor* resultT = p.transposed ? input : gradOutput;
  const bool empty = gradOutput->Numel() == 0 || input->Numel() == 0;
  DenseBuffer image, result;
  if (!empty) {
    image = plan.Input(imageT, p.transposed ? "gradOutput" : "input", imageT->viewDims, p.dtype);
    result = plan.Input(resultT, p.transposed ? "input" : "gradOutput", resultT->viewDims, p.dtype);
  }
  if (wantInput && gradInput->Numel() > 0) {
    if (empty) {
      Fill(plan, plan.Output(gradInput, "gradInput", p.dtype), gradInput->Numel(), 0.0);
    } else {
      const DenseBuffer w = plan.Input(weight, "weight", weight->viewDims, p.dtype);
      if (p.transposed) {
        AddConvolution(plan, p, image, w, nullptr, plan.Output(gradInput, "gradInput", p.dtype));
      } else {  // col2im accumulates in float32
        AddDataGradient(plan, p, result, w, nullptr, plan.Output(gradInput, "gradInput", ACL_FLOAT));
      }
    }
  }
  if (wantWeight && gradWeight->Numel() > 0) {
    const DenseBuffer gw = plan.Output(gradWeight, "gradWeight", p.dtype);  // [G, coutg, kg]
    if (empty) {
      Fill(plan, gw, gradWeight->Numel(), 0.0);
    } else {
      AddWeightGradient(plan, p, result, image, gw);
    }
  }
  if (wantBias && gradBias->Numel() > 0) {
    const DenseBuffer gb = plan.Output(gradBias, "gradBias", p.dtype);
    if (gradOutput->Numel() == 0) {
      Fill(plan, gb, outChannels, 0.0);
    } else {
      const DenseBuffer go = p.transposed ? image : result;
      const int64_t positions = gradOutput->Numel() / (p.g.batch * outChannels);
      AddChannelSums(plan, empty ? plan.Input(gradOutput, "gradOutput", gradOutput->viewDims, p.dtype) : go,
                     p.g.batch, outChannels, positions, gb);
    }
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus aclnnConvolutionBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnConvolutionBackward", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
