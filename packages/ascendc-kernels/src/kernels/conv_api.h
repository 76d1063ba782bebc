// Convolution as im2col and cube matmuls, shared by the acl_op convolution types (Conv2D, Conv3D, their
// gradients, Conv2DTranspose, Conv3DTranspose): the geometry check and the kernel sequence of each
// direction on dense operands, with temporaries carved from one caller-given workspace.
//
// Each is phrased as a plain convolution from an image X [N, C, D, H, W] to a result Y [N, Cout, L]
// (L = OD * OH * OW) with the weight W [Cout, C / G, KD, KH, KW] (Kg = C / G * KD * KH * KW); a transposed
// convolution is the data gradient of the plain one whose result is its input.
//   Convolution:    col [N, G, Kg (+1), L] = im2col(X);  Y[n, g] = W_g @ col[n, g]   (the bias as W's last column)
//   DataGradient:   X = col2im(W_g^T @ Y[n, g]) in float32 (float16 products rounded first, as CPU's float16
//                   column buffer is), optionally from a float32 bias per channel
//   WeightGradient: W_g = sum over n of Y[n, g] @ im2col(X)[n, g]^T
#ifndef ASCENDC_SIM_KERNELS_CONV_API_H
#define ASCENDC_SIM_KERNELS_CONV_API_H

#include <stddef.h>
#include <stdint.h>

#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "common/visibility.h"
#include "kernels/index_kernel_api.h"

namespace ascendc_sim {
namespace kernels {

// X [N, C, D, H, W], W [Cout, C / groups, KD, KH, KW], Y [N, Cout, OD, OH, OW] (2-D: D = KD = OD = 1).
struct ConvShape {
  WindowGeometry g;
  int64_t groups = 1;
  int64_t cout = 0;
  aclDataType dtype = ACL_DT_UNDEFINED;  // of input, weight and output (float32, float16, bfloat16)

  int64_t CoutPerGroup() const { return cout / groups; }
  int64_t Kg() const { return g.channels / groups * g.kd * g.kh * g.kw; }
  int64_t L() const { return g.outD * g.outH * g.outW; }
  int64_t ImagePlane() const { return g.d * g.h * g.w; }
};

// `shape` from 5-D image and weight sizes and (D, H, W) triples of stride, padding and dilation; false with
// the reason in `why` when they do not describe a convolution (groups, channels, a kernel larger than the
// padded image, a stride or dilation below 1, a negative padding). The result's (D, H, W) sizes follow from
// them, or are `resultSizes` when given (a transposed convolution's input, whose windows need not reach the
// image's last elements: its output_padding).
ASCENDC_SIM_INTERNAL_API bool DescribeConv(const std::vector<int64_t>& image, const std::vector<int64_t>& weight,
                                           const int64_t stride[3], const int64_t padding[3],
                                           const int64_t dilation[3], int64_t groups, aclDataType dtype,
                                           ConvShape* shape, std::string* why, const int64_t* resultSizes = nullptr);

// result (of s.dtype) = the convolution of image with weight (+ bias [Cout] of s.dtype, optional).
ASCENDC_SIM_INTERNAL_API size_t ConvolutionWorkspace(const ConvShape& s, bool bias);
ASCENDC_SIM_INTERNAL_API aclError LaunchConvolution(const ConvShape& s, const void* image, const void* weight,
                                                    const void* bias, void* result, void* workspace,
                                                    aclrtStream stream);

// image (float32) = the data gradient for result (+ bias, float32 [C], optional).
ASCENDC_SIM_INTERNAL_API size_t ConvDataGradientWorkspace(const ConvShape& s);
ASCENDC_SIM_INTERNAL_API aclError LaunchConvDataGradient(const ConvShape& s, const void* result, const void* weight,
                                                         const float* bias, void* image, void* workspace,
                                                         aclrtStream stream);

// weight gradient [Cout, C / G, KD, KH, KW] of `gradWeightType` (s.dtype, or float32: the accumulator unrounded).
ASCENDC_SIM_INTERNAL_API size_t ConvWeightGradientWorkspace(const ConvShape& s);
ASCENDC_SIM_INTERNAL_API aclError LaunchConvWeightGradient(const ConvShape& s, const void* result, const void* image,
                                                           aclDataType gradWeightType, void* gradWeight,
                                                           void* workspace, aclrtStream stream);

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_CONV_API_H
