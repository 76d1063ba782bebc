// The kernel sequences of kernels/conv_api.h: im2col_custom / col2im_custom, matmul_custom per group, and
// view copies for the bias column, the transposed weight and the group interleaving. In each function x is
// the image and y (gradOutput) the result of the plain convolution.
#include "kernels/conv_api.h"

#include <initializer_list>

#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {
namespace {

// Consecutive 64-byte aligned pieces of a workspace (with a null base: only counts the bytes).
class WorkspacePieces {
 public:
  explicit WorkspacePieces(void* base) : base_(static_cast<uint8_t*>(base)) {}
  void* Take(aclDataType dtype, int64_t elements) {
    uint8_t* piece = base_ == nullptr ? nullptr : base_ + used_;
    used_ += (static_cast<size_t>(elements) * DataTypeSize(dtype) + 63) / 64 * 64;
    return piece;
  }
  size_t used() const { return used_; }

 private:
  uint8_t* base_;
  size_t used_ = 0;
};

const void* At(const void* base, aclDataType dtype, int64_t elements) {
  return static_cast<const uint8_t*>(base) + static_cast<size_t>(elements) * DataTypeSize(dtype);
}
void* At(void* base, aclDataType dtype, int64_t elements) {
  return static_cast<uint8_t*>(base) + static_cast<size_t>(elements) * DataTypeSize(dtype);
}

// dst (at element offset dstOffset, strides dstStrides) = src (strides srcStrides) over `shape`, one dtype.
aclError CopyView(aclDataType dtype, const void* src, std::initializer_list<int64_t> srcStrides, void* dst,
                  std::initializer_list<int64_t> dstStrides, std::initializer_list<int64_t> shape,
                  aclrtStream stream, int64_t dstOffset = 0) {
  ViewCopyArgs args;
  args.ndim = static_cast<int32_t>(shape.size());
  int i = 0;
  for (int64_t d : shape) args.shape[i++] = d;
  i = 0;
  for (int64_t st : srcStrides) args.src.strides[i++] = st;
  i = 0;
  for (int64_t st : dstStrides) args.dst.strides[i++] = st;
  args.src.data = const_cast<void*>(src);
  args.src.dtype = dtype;
  args.dst.data = dst;
  args.dst.dtype = dtype;
  args.dst.offset = dstOffset;
  return LaunchViewCopy(args, stream);
}

// `batch` products c[i] [m, n] = a[i] [m, k] @ b[i] [k, n] (batch strides in elements; c dense).
struct Product {
  aclDataType dtype;
  uint64_t batch;
  int64_t m, k, n;
  uint64_t aStride, bStride;
  bool floatOutput = false;
  bool summedTransB = false;  // c = the sum over the batch of a[i] @ b[i]^T (b[i] stored [n, k])
};

aclError Multiply(const Product& p, const void* a, const void* b, void* c, aclrtStream stream) {
  MatmulArgs args;
  args.dtype = p.dtype;
  args.batch = p.batch;
  args.m = p.m;
  args.k = p.k;
  args.n = p.n;
  args.aBatchStride = p.aStride;
  args.bBatchStride = p.bStride;
  args.floatOutput = p.floatOutput;
  args.transB = p.summedTransB;
  args.sumBatch = p.summedTransB;
  args.a = a;
  args.b = b;
  args.c = c;
  return LaunchMatmul(args, stream);
}

aclError Im2col(const ConvShape& s, bool ones, const void* x, void* col, aclrtStream stream) {
  Im2colArgs args;
  args.dtype = s.dtype;
  args.g = s.g;
  args.groups = s.groups;
  args.ones = ones;
  args.x = x;
  args.col = col;
  return LaunchIm2col(args, stream);
}

aclError Zero(aclDataType dtype, void* y, int64_t n, aclrtStream stream) {
  return LaunchFill(dtype, y, static_cast<uint64_t>(n), ScalarValue::Floating(0.0), stream);
}

bool Empty(const ConvShape& s) { return s.g.batch * s.cout * s.L() == 0; }

// The forward's pieces: wa (the weight with the bias column), col, and the per-group results.
struct ForwardPieces {
  void* withBias = nullptr;
  void* col = nullptr;
  void* grouped = nullptr;
  size_t bytes = 0;
};
ForwardPieces ForwardLayout(const ConvShape& s, bool bias, void* workspace) {
  const int64_t ka = s.Kg() + (bias ? 1 : 0);
  WorkspacePieces w(workspace);
  ForwardPieces p;
  if (bias) p.withBias = w.Take(s.dtype, s.cout * ka);
  p.col = w.Take(s.dtype, s.g.batch * s.groups * ka * s.L());
  if (s.groups > 1) p.grouped = w.Take(s.dtype, s.g.batch * s.cout * s.L());
  p.bytes = w.used();
  return p;
}

// The input gradient's pieces: the transposed weight, the column gradient and its per-group parts.
struct GradInputPieces {
  void* weightT = nullptr;
  void* colGrad = nullptr;
  void* grouped = nullptr;
  size_t bytes = 0;
};
// float16 products are rounded before col2im sums them as CPU's float16 column buffer is; the others stay
// float32 (CPU accumulates bfloat16 in float32).
aclDataType ColumnGradType(const ConvShape& s) { return s.dtype == ACL_FLOAT16 ? ACL_FLOAT16 : ACL_FLOAT; }
GradInputPieces GradInputLayout(const ConvShape& s, void* workspace) {
  const int64_t cols = s.g.batch * s.groups * s.Kg() * s.L();
  WorkspacePieces w(workspace);
  GradInputPieces p;
  p.weightT = w.Take(s.dtype, s.cout * s.Kg());
  p.colGrad = w.Take(ColumnGradType(s), cols);
  if (s.groups > 1) p.grouped = w.Take(ColumnGradType(s), cols);
  p.bytes = w.used();
  return p;
}

}  // namespace

bool DescribeConv(const std::vector<int64_t>& image, const std::vector<int64_t>& weight, const int64_t stride[3],
                  const int64_t padding[3], const int64_t dilation[3], int64_t groups, aclDataType dtype,
                  ConvShape* shape, std::string* why, const int64_t* resultSizes) {
  if (image.size() != 5 || weight.size() != 5) {
    *why = StrFormat("image %s and weight %s must be 5-D", ShapeToString(image).c_str(),
                     ShapeToString(weight).c_str());
    return false;
  }
  if (dtype != ACL_FLOAT && dtype != ACL_FLOAT16 && dtype != ACL_BF16) {
    *why = StrFormat("data type %s is not supported (float32, float16, bfloat16)", DataTypeName(dtype));
    return false;
  }
  for (int i = 0; i < 3; ++i) {
    if (stride[i] < 1 || dilation[i] < 1 || padding[i] < 0) {
      *why = StrFormat("strides (%lld, %lld, %lld) and dilations (%lld, %lld, %lld) must be positive and pads "
                       "(%lld, %lld, %lld) not negative", static_cast<long long>(stride[0]),
                       static_cast<long long>(stride[1]), static_cast<long long>(stride[2]),
                       static_cast<long long>(dilation[0]), static_cast<long long>(dilation[1]),
                       static_cast<long long>(dilation[2]), static_cast<long long>(padding[0]),
                       static_cast<long long>(padding[1]), static_cast<long long>(padding[2]));
      return false;
    }
  }
  const int64_t channels = image[1];
  if (groups <= 0 || channels <= 0 || channels % groups != 0 || weight[0] % groups != 0 ||
      weight[1] * groups != channels) {
    *why = StrFormat("weight %s does not fit image %s in %lld groups (its channels must be positive and divisible "
                     "by groups)", ShapeToString(weight).c_str(), ShapeToString(image).c_str(),
                     static_cast<long long>(groups));
    return false;
  }
  WindowGeometry& g = shape->g;
  g = WindowGeometry();
  g.batch = image[0];
  g.channels = channels;
  int64_t* sizes[3] = {&g.d, &g.h, &g.w};
  int64_t* kernel[3] = {&g.kd, &g.kh, &g.kw};
  int64_t* strides[3] = {&g.sd, &g.sh, &g.sw};
  int64_t* pads[3] = {&g.pd, &g.ph, &g.pw};
  int64_t* dilations[3] = {&g.dd, &g.dh, &g.dw};
  int64_t* outputs[3] = {&g.outD, &g.outH, &g.outW};
  for (int i = 0; i < 3; ++i) {
    *sizes[i] = image[2 + i];
    *kernel[i] = weight[2 + i];
    *strides[i] = stride[i];
    *pads[i] = padding[i];
    *dilations[i] = dilation[i];
    const int64_t extent = dilation[i] * (weight[2 + i] - 1) + 1;
    if (weight[2 + i] < 1 || image[2 + i] + 2 * padding[i] < extent) {
      *why = StrFormat("the padded image %s is smaller than the dilated kernel %s", ShapeToString(image).c_str(),
                       ShapeToString(weight).c_str());
      return false;
    }
    *outputs[i] = (image[2 + i] + 2 * padding[i] - extent) / stride[i] + 1;
    if (resultSizes != nullptr) {
      if (resultSizes[i] < 0 || resultSizes[i] > *outputs[i]) {
        *why = StrFormat("a result of %lld along spatial dimension %d does not fit the padded image %s with the "
                         "dilated kernel %s", static_cast<long long>(resultSizes[i]), i, ShapeToString(image).c_str(),
                         ShapeToString(weight).c_str());
        return false;
      }
      *outputs[i] = resultSizes[i];
    }
  }
  shape->groups = groups;
  shape->cout = weight[0];
  shape->dtype = dtype;
  return true;
}

size_t ConvolutionWorkspace(const ConvShape& s, bool bias) { return ForwardLayout(s, bias, nullptr).bytes; }

aclError LaunchConvolution(const ConvShape& s, const void* x, const void* weight, const void* bias, void* y,
                           void* workspace, aclrtStream stream) {
  if (Empty(s)) return ACL_SUCCESS;
  const bool hasBias = bias != nullptr;
  const ForwardPieces p = ForwardLayout(s, hasBias, workspace);
  const int64_t N = s.g.batch, G = s.groups, coutg = s.CoutPerGroup(), kg = s.Kg(), L = s.L();
  const int64_t ka = kg + (hasBias ? 1 : 0);
  aclError rc = ACL_SUCCESS;
  const void* w = weight;
  if (hasBias) {  // [Cout, Kg + 1]: the weight rows, then the bias as the last column
    rc = CopyView(s.dtype, weight, {kg, 1}, p.withBias, {ka, 1}, {s.cout, kg}, stream);
    if (rc == ACL_SUCCESS) rc = CopyView(s.dtype, bias, {1, 0}, p.withBias, {ka, 1}, {s.cout, 1}, stream, kg);
    if (rc != ACL_SUCCESS) return rc;
    w = p.withBias;
  }
  if ((rc = Im2col(s, hasBias, x, p.col, stream)) != ACL_SUCCESS) return rc;
  Product product{s.dtype, static_cast<uint64_t>(N), coutg, ka, L, 0, static_cast<uint64_t>(G * ka * L)};
  if (G == 1) return Multiply(product, w, p.col, y, stream);
  for (int64_t grp = 0; grp < G && rc == ACL_SUCCESS; ++grp) {  // into [G, N, Cout / G, L]
    rc = Multiply(product, At(w, s.dtype, grp * coutg * ka), At(p.col, s.dtype, grp * ka * L),
                  At(p.grouped, s.dtype, grp * N * coutg * L), stream);
  }
  if (rc != ACL_SUCCESS) return rc;
  return CopyView(s.dtype, p.grouped, {N * coutg * L, coutg * L, L, 1}, y, {coutg * L, s.cout * L, L, 1},
                  {G, N, coutg, L}, stream);
}

size_t ConvDataGradientWorkspace(const ConvShape& s) { return GradInputLayout(s, nullptr).bytes; }

aclError LaunchConvDataGradient(const ConvShape& s, const void* gradOutput, const void* weight, const float* bias,
                                void* gradInput, void* workspace, aclrtStream stream) {
  const int64_t N = s.g.batch, G = s.groups, coutg = s.CoutPerGroup(), kg = s.Kg(), L = s.L();
  if (Empty(s)) {  // no products: each element is its channel's bias, or 0
    const int64_t C = s.g.channels, plane = s.ImagePlane();
    if (bias == nullptr) return Zero(ACL_FLOAT, gradInput, N * C * plane, stream);
    return CopyView(ACL_FLOAT, bias, {0, 1, 0}, gradInput, {C * plane, plane, 1}, {N, C, plane}, stream);
  }
  const GradInputPieces p = GradInputLayout(s, workspace);
  const aclDataType colType = ColumnGradType(s);
  aclError rc = CopyView(s.dtype, weight, {coutg * kg, kg, 1}, p.weightT, {coutg * kg, 1, coutg}, {G, coutg, kg},
                         stream);  // [G, Kg, Cout / G]
  if (rc != ACL_SUCCESS) return rc;
  Product product{s.dtype, static_cast<uint64_t>(N), kg, coutg, L, 0, static_cast<uint64_t>(s.cout * L)};
  product.floatOutput = colType == ACL_FLOAT;
  if (G == 1) {
    rc = Multiply(product, p.weightT, gradOutput, p.colGrad, stream);
  } else {  // per group into [G, N, Kg, L], then interleaved into [N, G, Kg, L]
    for (int64_t grp = 0; grp < G && rc == ACL_SUCCESS; ++grp) {
      rc = Multiply(product, At(p.weightT, s.dtype, grp * kg * coutg), At(gradOutput, s.dtype, grp * coutg * L),
                    At(p.grouped, colType, grp * N * kg * L), stream);
    }
    if (rc == ACL_SUCCESS) {
      rc = CopyView(colType, p.grouped, {N * kg * L, kg * L, L, 1}, p.colGrad, {kg * L, G * kg * L, L, 1},
                    {G, N, kg, L}, stream);
    }
  }
  if (rc != ACL_SUCCESS) return rc;
  Col2imArgs args;
  args.dtype = colType;
  args.g = s.g;
  args.col = p.colGrad;
  args.bias = bias;
  args.x = gradInput;
  return LaunchCol2im(args, stream);
}

size_t ConvWeightGradientWorkspace(const ConvShape& s) {
  WorkspacePieces w(nullptr);
  w.Take(s.dtype, s.g.batch * s.groups * s.Kg() * s.L());
  return w.used();
}

aclError LaunchConvWeightGradient(const ConvShape& s, const void* gradOutput, const void* x,
                                  aclDataType gradWeightType, void* gradWeight, void* workspace, aclrtStream stream) {
  const int64_t N = s.g.batch, G = s.groups, coutg = s.CoutPerGroup(), kg = s.Kg(), L = s.L();
  if (Empty(s)) return Zero(gradWeightType, gradWeight, s.cout * kg, stream);
  aclError rc = Im2col(s, false, x, workspace, stream);  // [N, G, Kg, L]
  Product product{s.dtype, static_cast<uint64_t>(N), coutg, L, kg, static_cast<uint64_t>(s.cout * L),
                  static_cast<uint64_t>(G * kg * L)};
  product.floatOutput = gradWeightType == ACL_FLOAT;
  product.summedTransB = true;
  for (int64_t grp = 0; grp < G && rc == ACL_SUCCESS; ++grp) {
    rc = Multiply(product, At(gradOutput, s.dtype, grp * coutg * L), At(workspace, s.dtype, grp * kg * L),
                  At(gradWeight, gradWeightType, grp * coutg * kg), stream);
  }
  return rc;
}

}  // namespace kernels
}  // namespace ascendc_sim
