// aclnnFftC2C / aclnnFftR2C / aclnnFftC2R: multi-dimensional discrete Fourier
// transforms as a sequence of one-dimensional ones. self (any layout) is brought to a
// dense complex128 tile (a real self becomes (x, 0), complex64 widens); the kernel
// fft_lines transforms one dimension per launch between two workspace tiles (R2C:
// the last dimension first, keeping its one-sided half; C2R: the last dimension last,
// from its Hermitian half); the last launch applies the normalization and writes the
// output tile, which out (any layout) receives through the output view-copy
// (complex128 -> complex64, or the real part for C2R).
#include "aclnnop/aclnn_fft.h"

#include <math.h>

#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/complex_api.h"
#include "meta/executor.h"

namespace ascendc_sim {
namespace aclnn {
namespace {

enum class FftKind { kC2C, kR2C, kC2R };

// One launch: dimension `dim` of the current shape, from `inLength` to `outLength` elements.
struct FftStage {
  size_t dim = 0;
  int64_t inLength = 0;
  int64_t outLength = 0;
  int64_t length = 0;
  bool hermitian = false;
};

int64_t Product(const std::vector<int64_t>& shape, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t k = begin; k < end; ++k) p *= shape[k];
  return p;
}

aclnnStatus FftWorkspace(const char* api, FftKind kind, const aclTensor* self, const aclIntArray* dim,
                         int64_t normalization, bool forward, bool onesided, int64_t lastDimSize,
                         const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  aclnnStatus rc;
  if ((rc = CheckNotNull(api, self, "self")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, dim, "dim")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, out, "out")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, workspaceSize, "workspaceSize")) != ACLNN_SUCCESS) return rc;
  if ((rc = CheckNotNull(api, executor, "executor")) != ACLNN_SUCCESS) return rc;
  const bool realIn = kind == FftKind::kR2C;
  const bool realOut = kind == FftKind::kC2R;
  if (realIn) {
    rc = CheckTensor(api, self, "self", {ACL_FLOAT, ACL_DOUBLE});
  } else {
    rc = CheckTensor(api, self, "self", {ACL_COMPLEX64, ACL_COMPLEX128});
  }
  if (rc != ACLNN_SUCCESS) return rc;
  // The result's dtype: complex of self's precision, or its real part's.
  const bool doublePrecision = self->dtype == ACL_DOUBLE || self->dtype == ACL_COMPLEX128;
  const aclDataType resultType =
      realOut ? (doublePrecision ? ACL_DOUBLE : ACL_FLOAT) : (doublePrecision ? ACL_COMPLEX128 : ACL_COMPLEX64);
  if ((rc = CheckTensor(api, out, "out", {resultType})) != ACLNN_SUCCESS) return rc;
  if (normalization < 0 || normalization > 2) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: normalization %lld is not 0 (none), 1 (by sqrt(n)) or 2 (by n)",
                      api, static_cast<long long>(normalization));
  }
  const std::vector<int64_t>& shape = self->viewDims;
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<size_t> dims;
  std::vector<bool> named(shape.size(), false);
  for (int64_t d : dim->values) {
    if (d < -rank || d >= rank) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %lld is out of range for a %lld-D self", api,
                        static_cast<long long>(d), static_cast<long long>(rank));
    }
    const size_t k = static_cast<size_t>(d < 0 ? d + rank : d);
    if (named[k]) return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim %zu appears more than once", api, k);
    named[k] = true;
    dims.push_back(k);
  }
  if (kind != FftKind::kC2C && dims.empty()) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: dim must name at least one dimension", api);
  }
  // The stages and the shape after each.
  std::vector<FftStage> stages;
  std::vector<int64_t> current = shape;
  double signalSize = 1.0;
  auto addStage = [&](size_t d, int64_t length, int64_t outLength, bool hermitian) {
    FftStage s;
    s.dim = d;
    s.inLength = current[d];
    s.length = length;
    s.outLength = outLength;
    s.hermitian = hermitian;
    stages.push_back(s);
    current[d] = outLength;
    signalSize *= static_cast<double>(length);
  };
  if (kind == FftKind::kR2C) {
    const size_t last = dims.back();
    const int64_t n = shape[last];
    addStage(last, n, onesided ? n / 2 + 1 : n, false);
    for (size_t i = 0; i + 1 < dims.size(); ++i) addStage(dims[i], shape[dims[i]], shape[dims[i]], false);
  } else if (kind == FftKind::kC2R) {
    if (lastDimSize < 1) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: lastDimSize %lld must be at least 1", api,
                        static_cast<long long>(lastDimSize));
    }
    for (size_t i = 0; i + 1 < dims.size(); ++i) addStage(dims[i], shape[dims[i]], shape[dims[i]], false);
    addStage(dims.back(), lastDimSize, lastDimSize, true);
  } else {
    for (size_t d : dims) addStage(d, shape[d], shape[d], false);
  }
  if (out->viewDims != current) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: out has shape %s, the result has shape %s", api,
                      ShapeToString(out->viewDims).c_str(), ShapeToString(current).c_str());
  }
  const double scale = normalization == 0 ? 1.0 : normalization == 1 ? 1.0 / sqrt(signalSize) : 1.0 / signalSize;

  ExecutorBuilder plan(api);
  const int64_t outNumel = Product(current, 0, current.size());
  if (outNumel == 0) return plan.Finish(workspaceSize, executor);
  if (self->Numel() == 0 || stages.empty()) {
    // No data to transform (a transformed line of 0 elements is zero padded) or no dimension:
    // the result is self itself (C2C with no dim) or zeros.
    if (stages.empty()) {
      plan.CopyView(self, "self", out, "out");
    } else {
      const DenseBuffer y = plan.Output(out, "out", ACL_COMPLEX128);
      plan.AddStep([y, outNumel](uint8_t* ws, aclrtStream stream) {
        return kernels::LaunchFillComplex(ACL_COMPLEX128, y.Resolve(ws), static_cast<uint64_t>(outNumel), 0.0, 0.0,
                                          stream);
      });
    }
    return plan.Finish(workspaceSize, executor);
  }
  for (const FftStage& s : stages) {
    if (s.length < 1) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: a transform of %lld points along dim %zu", api,
                        static_cast<long long>(s.length), s.dim);
    }
  }
  // Tiles: the input, two work tiles as large as the largest intermediate, the output.
  std::vector<int64_t> walk = shape;
  int64_t largest = 0;
  std::vector<kernels::FftLinesArgs> launches;
  uint64_t scratchBytes = 0;
  for (const FftStage& s : stages) {
    kernels::FftLinesArgs a;
    a.outer = Product(walk, 0, s.dim);
    a.inner = Product(walk, s.dim + 1, walk.size());
    a.inLength = s.inLength;
    a.outLength = s.outLength;
    a.length = s.length;
    a.forward = kind == FftKind::kC2C ? forward : kind == FftKind::kR2C;
    a.hermitian = s.hermitian;
    walk[s.dim] = s.outLength;
    const int64_t numel = Product(walk, 0, walk.size());
    if (numel > largest) largest = numel;
    const uint64_t bytes = kernels::FftLinesScratchBytes(a);
    if (bytes > scratchBytes) scratchBytes = bytes;
    launches.push_back(a);
  }
  launches.back().scale = scale;
  const DenseBuffer x = plan.Input(self, "self", shape, ACL_COMPLEX128);
  const DenseBuffer y = plan.Output(out, "out", ACL_COMPLEX128);
  DenseBuffer work[2];
  if (launches.size() > 1) {
    work[0] = plan.Scratch(largest, ACL_COMPLEX128);
    work[1] = plan.Scratch(largest, ACL_COMPLEX128);
  }
  const DenseBuffer scratch = plan.Scratch(static_cast<int64_t>((scratchBytes + 15) / 16), ACL_COMPLEX128);
  DenseBuffer from = x;
  for (size_t i = 0; i < launches.size(); ++i) {
    const DenseBuffer to = i + 1 == launches.size() ? y : work[i % 2];
    const kernels::FftLinesArgs a = launches[i];
    plan.AddStep([a, from, to, scratch](uint8_t* ws, aclrtStream stream) {
      kernels::FftLinesArgs args = a;
      args.x = from.Resolve(ws);
      args.y = to.Resolve(ws);
      return kernels::LaunchFftLines(args, scratch.Resolve(ws), stream);
    });
    from = to;
  }
  return plan.Finish(workspaceSize, executor);
}

}  // namespace
}  // namespace aclnn
}  // namespace ascendc_sim

using ascendc_sim::aclnn::FftKind;
using ascendc_sim::aclnn::FftWorkspace;

extern "C" {

aclnnStatus aclnnFftC2CGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, int64_t normalization,
                                        bool forward, aclTensor* out, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
  return FftWorkspace("aclnnFftC2C", FftKind::kC2C, self, dim, normalization, forward, false, 0, out, workspaceSize,
                      executor);
}

aclnnStatus aclnnFftC2C(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnFftC2C", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnFftR2CGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, int64_t normalization,
                                        bool onesided, aclTensor* out, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
  return FftWorkspace("aclnnFftR2C", FftKind::kR2C, self, dim, normalization, true, onesided, 0, out, workspaceSize,
                      executor);
}

aclnnStatus aclnnFftR2C(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnFftR2C", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnFftC2RGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, int64_t normalization,
                                        int64_t lastDimSize, aclTensor* out, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
  return FftWorkspace("aclnnFftC2R", FftKind::kC2R, self, dim, normalization, false, false, lastDimSize, out,
                      workspaceSize, executor);
}

aclnnStatus aclnnFftC2R(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return ascendc_sim::LaunchExecutor("aclnnFftC2R", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
