// Convolution as im2col and cube matmuls, shared by every entry point that convolves (the acl_op types
// Conv2D, Conv2DBackpropInput, Conv2DBackpropFilter): the geometry check and the kernel sequence of each
// direction on dense NCHW operands, with temporaries carved from one caller-given workspace.
//
// Forward, per group g (Kg = C / G * KH * KW, L = OH * OW):
//   col [N, G, Kg (+1), L] = im2col(x)                  (+1: a row of ones when there is a bias)
//   y[n, g] [Cout / G, L] = W_g [Cout / G, Kg (+1)] @ col[n, g]   (the bias as W's last column)
// Input gradient: col2im(W_g^T @ gradOutput[n, g]) in float32 (float16 products rounded first, as CPU's
// float16 column buffer is). Weight gradient: gradWeight_g = sum over n of gradOutput[n, g] @ col[n, g]^T.
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

// input [N, C, H, W], weight [Cout, C / groups, KH, KW], output [N, Cout, OH, OW] (1-D: H = KH = OH = 1).
struct ConvShape {
  WindowGeometry g;
  int64_t groups = 1;
  int64_t cout = 0;
  aclDataType dtype = ACL_DT_UNDEFINED;  // of input, weight and output (float32, float16, bfloat16)

  int64_t CoutPerGroup() const { return cout / groups; }
  int64_t Kg() const { return g.channels / groups * g.kh * g.kw; }
  int64_t L() const { return g.outH * g.outW; }
};

// `shape` from 4-D input and weight sizes and (H, W) pairs of stride, padding and dilation; false with the
// reason in `why` when they do not describe a convolution (groups, channels, a kernel larger than the
// padded input, a stride or dilation below 1, a negative padding).
ASCENDC_SIM_INTERNAL_API bool DescribeConv(const std::vector<int64_t>& input, const std::vector<int64_t>& weight,
                                           const int64_t stride[2], const int64_t padding[2],
                                           const int64_t dilation[2], int64_t groups, aclDataType dtype,
                                           ConvShape* shape, std::string* why);

// y [N, Cout, OH, OW] = the convolution of x with weight (+ bias [Cout], optional).
ASCENDC_SIM_INTERNAL_API size_t ConvForwardWorkspace(const ConvShape& s, bool bias);
ASCENDC_SIM_INTERNAL_API aclError LaunchConvForward(const ConvShape& s, const void* x, const void* weight,
                                                    const void* bias, void* y, void* workspace, aclrtStream stream);

// gradInput [N, C, H, W] (float32) = the input gradient for gradOutput [N, Cout, OH, OW].
ASCENDC_SIM_INTERNAL_API size_t ConvGradInputWorkspace(const ConvShape& s);
ASCENDC_SIM_INTERNAL_API aclError LaunchConvGradInput(const ConvShape& s, const void* gradOutput, const void* weight,
                                                      void* gradInput, void* workspace, aclrtStream stream);

// gradWeight [Cout, C / G, KH, KW] of `gradWeightType` (s.dtype, or float32: the accumulator unrounded).
ASCENDC_SIM_INTERNAL_API size_t ConvGradWeightWorkspace(const ConvShape& s);
ASCENDC_SIM_INTERNAL_API aclError LaunchConvGradWeight(const ConvShape& s, const void* gradOutput, const void* x,
                                                       aclDataType gradWeightType, void* gradWeight, void* workspace,
                                                       aclrtStream stream);

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_CONV_API_H
