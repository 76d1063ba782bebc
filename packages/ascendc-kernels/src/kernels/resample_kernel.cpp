// resample_taps_custom, resample_custom, resample_backward_custom, window_max_custom and
// plane_scatter_custom (resample_api.h).
//
// The tap tables: per axis and output coordinate `taps` int64 input coordinates, as many
// weights in the compute type (float for float32/float16/bfloat16, double for double) and an
// int64 divisor, written by resample_taps_custom (one block per axis, a tile per chunk of
// output coordinates) with PyTorch's CPU index and weight formulas in the compute type.
// Forward blocks take ranges of output rows (plane, od, oh): a row is accumulated in the
// compute type into a unified-buffer tile and written with one copy. Backward blocks take
// ranges of planes (their gradient planes are disjoint, so the sums do not depend on the
// schedule): a block zeroes its planes, then adds each gradOutput row tile through the taps.
#include <math.h>

#include <algorithm>
#include <type_traits>

#include "ascendc_sim/kernel/trap.h"
#include "ascendc_sim/launch.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_helpers.h"
#include "kernels/resample_api.h"

namespace ascendc_sim {
namespace kernels {
namespace {

template <typename T>
using ComputeOf = typename std::conditional<std::is_same<T, double>::value, double, float>::type;

constexpr uint32_t kChunk = 2048;
constexpr uint64_t kTableAlignment = 64;

// Where each axis' tables live in the taps workspace.
struct TapLayout {
  int64_t taps[kResampleAxes] = {1, 1, 1};
  uint64_t idxOffset[kResampleAxes] = {}, wOffset[kResampleAxes] = {}, divOffset[kResampleAxes] = {};
  uint64_t bytes = 0;
};

uint64_t AlignUp(uint64_t v) { return (v + kTableAlignment - 1) / kTableAlignment * kTableAlignment; }

TapLayout MakeLayout(const ResampleArgs& a) {
  TapLayout l;
  const uint64_t wBytes = ResampleAccumulateType(a.dtype) == ACL_DOUBLE ? 8 : 4;
  uint64_t at = 0;
  for (int i = 0; i < kResampleAxes; ++i) {
    const ResampleAxis& ax = a.axis[i];
    l.taps[i] = ResampleAxisTaps(ax, a.dtype);
    const uint64_t entries = static_cast<uint64_t>(ax.out * l.taps[i]);
    l.idxOffset[i] = at;
    at = AlignUp(at + entries * 8);
    l.wOffset[i] = at;
    at = AlignUp(at + entries * wBytes);
    l.divOffset[i] = at;
    at = AlignUp(at + static_cast<uint64_t>(ax.out) * 8);
  }
  l.bytes = std::max<uint64_t>(at, kTableAlignment);
  return l;
}

// ---- PyTorch's index and weight formulas (ATen/native/UpSample.h), in the compute type C ----

template <typename C>
__aicore__ inline C AreaPixelScale(const ResampleAxis& a) {
  if (a.alignCorners) return a.out > 1 ? static_cast<C>(a.in - 1) / static_cast<C>(a.out - 1) : C(0);
  return a.scale > 0.0 ? static_cast<C>(1.0 / a.scale) : static_cast<C>(a.in) / static_cast<C>(a.out);
}

template <typename C>
__aicore__ inline C AreaPixelSourceIndex(C scale, int64_t o, bool alignCorners, bool cubic) {
  if (alignCorners) return scale * static_cast<C>(o);
  const C src = scale * (static_cast<C>(o) + C(0.5)) - C(0.5);
  return (!cubic && src < C(0)) ? C(0) : src;
}

__aicore__ inline float NearestScale(const ResampleAxis& a) {
  return a.scale > 0.0 ? static_cast<float>(1.0 / a.scale) : static_cast<float>(a.in) / static_cast<float>(a.out);
}

template <typename C>
__aicore__ inline C CubicConvolution1(C x, C A) { return ((A + 2) * x - (A + 3)) * x * x + 1; }
template <typename C>
__aicore__ inline C CubicConvolution2(C x, C A) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; }

template <typename C>
__aicore__ inline C AntialiasFilter(AxisRule rule, C x) {
  if (x < C(0)) x = -x;
  if (rule == AxisRule::kAntialiasLinear) return x < C(1) ? C(1) - x : C(0);
  const C a = C(-0.5);
  if (x < C(1)) return CubicConvolution1(x, a);
  if (x < C(2)) return CubicConvolution2(x, a);
  return C(0);
}

template <typename C>
__aicore__ inline C AntialiasSupport(AxisRule rule, C scale) {
  const double interp = rule == AxisRule::kAntialiasLinear ? 2.0 : 4.0;
  return scale >= C(1) ? static_cast<C>(interp * 0.5 * static_cast<double>(scale)) : static_cast<C>(interp * 0.5);
}

__aicore__ inline int64_t AdaptiveStart(int64_t o, int64_t out, int64_t in) { return (o / out) * in + ((o % out) * in) / out; }
__aicore__ inline int64_t AdaptiveEnd(int64_t o, int64_t out, int64_t in) { return 1 + ((o + 1) * in - 1) / out; }

// The taps of output coordinate o: idx/w (k entries, unused ones weight 0 at index 0) and the
// axis divisor (0: an empty pooling window).
template <typename C>
__aicore__ inline void AxisTaps(const ResampleAxis& a, int64_t k, int64_t o, int64_t* idx, C* w, int64_t* div) {
  for (int64_t j = 0; j < k; ++j) {
    idx[j] = 0;
    w[j] = C(0);
  }
  *div = 1;
  switch (a.rule) {
    case AxisRule::kIdentity:
    case AxisRule::kMaxWindow:
      idx[0] = o;
      w[0] = C(1);
      return;
    case AxisRule::kNearest: {
      if (a.out == a.in) {
        idx[0] = o;
      } else if (a.out == 2 * a.in) {
        idx[0] = o >> 1;
      } else {
        idx[0] = std::min(static_cast<int64_t>(floorf(static_cast<float>(o) * NearestScale(a))), a.in - 1);
      }
      w[0] = C(1);
      return;
    }
    case AxisRule::kNearestExact: {
      const float s = NearestScale(a);
      idx[0] = std::min(static_cast<int64_t>(floorf(static_cast<float>((static_cast<double>(o) + 0.5) * s))), a.in - 1);
      w[0] = C(1);
      return;
    }
    case AxisRule::kLinear: {
      if (a.out == a.in) {
        idx[0] = idx[1] = o;
        w[0] = C(1);
        return;
      }
      const C real = AreaPixelSourceIndex<C>(AreaPixelScale<C>(a), o, a.alignCorners, false);
      const int64_t i0 = std::min(static_cast<int64_t>(floorf(static_cast<float>(real))), a.in - 1);
      const C lambda1 = std::min(std::max(real - static_cast<C>(i0), C(0)), C(1));
      idx[0] = i0;
      idx[1] = i0 + (i0 < a.in - 1 ? 1 : 0);
      w[0] = C(1) - lambda1;
      w[1] = lambda1;
      return;
    }
    case AxisRule::kCubic: {
      const C real = AreaPixelSourceIndex<C>(AreaPixelScale<C>(a), o, a.alignCorners, true);
      const int64_t i0 = std::min(static_cast<int64_t>(floorf(static_cast<float>(real))), a.in - 1);
      const C t = std::min(std::max(real - static_cast<C>(i0), C(0)), C(1));
      const C A = C(-0.75);
      w[0] = CubicConvolution2<C>(t + C(1), A);
      w[1] = CubicConvolution1<C>(t, A);
      w[2] = CubicConvolution1<C>(C(1) - t, A);
      w[3] = CubicConvolution2<C>(C(1) - t + C(1), A);
      for (int64_t j = 0; j < 4; ++j) idx[j] = std::max<int64_t>(std::min(i0 - 1 + j, a.in - 1), 0);
      return;
    }
    case AxisRule::kAntialiasLinear:
    case AxisRule::kAntialiasCubic: {
      const C scale = AreaPixelScale<C>(a);
      const C support = AntialiasSupport<C>(a.rule, scale);
      const C center = static_cast<C>(static_cast<double>(scale) * (static_cast<double>(o) + 0.5));
      const C invscale = scale >= C(1) ? C(1) / scale : C(1);
      const int64_t xmin =
          std::max<int64_t>(static_cast<int64_t>(static_cast<double>(center - support) + 0.5), 0);
      int64_t xsize = std::min<int64_t>(static_cast<int64_t>(static_cast<double>(center + support) + 0.5), a.in) - xmin;
      xsize = std::max<int64_t>(0, std::min(xsize, k));
      C total = C(0);
      for (int64_t j = 0; j < xsize; ++j) {
        const C arg = static_cast<C>((static_cast<double>(static_cast<C>(j + xmin) - center) + 0.5) *
                                     static_cast<double>(invscale));
        w[j] = AntialiasFilter<C>(a.rule, arg);
        idx[j] = xmin + j;
        total += w[j];
      }
      if (total != C(0)) {
        for (int64_t j = 0; j < xsize; ++j) w[j] /= total;
      }
      return;
    }
    case AxisRule::kAvgWindow: {
      int64_t start = o * a.stride - a.pad;
      int64_t end = std::min(start + a.kernel, a.in + a.pad);
      const int64_t poolSize = end - start;
      start = std::max<int64_t>(start, 0);
      end = std::min(end, a.in);
      if (start >= end) {
        *div = 0;
        return;
      }
      for (int64_t j = 0; j < end - start && j < k; ++j) {
        idx[j] = start + j;
        w[j] = C(1);
      }
      *div = a.countIncludePad ? poolSize : end - start;
      return;
    }
    case AxisRule::kAdaptive: {
      const int64_t start = AdaptiveStart(o, a.out, a.in), end = AdaptiveEnd(o, a.out, a.in);
      for (int64_t j = 0; j < end - start && j < k; ++j) {
        idx[j] = start + j;
        w[j] = C(1);
      }
      *div = end - start;
      return;
    }
    case AxisRule::kReflect:
    case AxisRule::kReplicate: {
      // PyTorch's padding index: the padded coordinate, then shifted by the cropped start.
      const int64_t padL = a.pad;
      const int64_t iStart = std::max<int64_t>(0, -padL), oStart = std::max<int64_t>(0, padL);
      int64_t ip;
      if (a.rule == AxisRule::kReflect) {
        ip = o < padL ? padL * 2 - o : (o < a.in + padL ? o : (a.in + padL - 1) * 2 - o);
      } else {
        ip = o < padL ? padL : (o < a.in + padL ? o : a.in + padL - 1);
      }
      idx[0] = ip - oStart + iStart;
      w[0] = C(1);
      return;
    }
  }
}

struct TapsTiling {
  ResampleAxis axis[kResampleAxes];
  TapLayout layout;
};

template <typename C>
__global__ __aicore__ void resample_taps_custom(GM_ADDR taps, TapsTiling t) {
  const int a = static_cast<int>(AscendC::GetBlockIdx());
  const ResampleAxis& ax = t.axis[a];
  const int64_t k = t.layout.taps[a];
  const uint64_t entries = static_cast<uint64_t>(ax.out * k);
  AscendC::GlobalTensor<int64_t> idxGm, divGm;
  AscendC::GlobalTensor<C> wGm;
  idxGm.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(taps + t.layout.idxOffset[a]), entries);
  wGm.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(taps + t.layout.wOffset[a]), entries);
  divGm.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(taps + t.layout.divOffset[a]), static_cast<uint64_t>(ax.out));
  // A chunk of whole output coordinates per tile.
  const int64_t perTile = std::max<int64_t>(1, static_cast<int64_t>(kChunk) / k);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> idxQueue, wQueue, divQueue;
  pipe.InitBuffer(idxQueue, 1, static_cast<uint32_t>(perTile * k * sizeof(int64_t)));
  pipe.InitBuffer(wQueue, 1, static_cast<uint32_t>(perTile * k * sizeof(C)));
  pipe.InitBuffer(divQueue, 1, static_cast<uint32_t>(perTile * sizeof(int64_t)));
  int64_t idx[64];
  C w[64];
  for (int64_t o0 = 0; o0 < ax.out; o0 += perTile) {
    const int64_t n = std::min(perTile, ax.out - o0);
    AscendC::LocalTensor<int64_t> idxTile = idxQueue.AllocTensor<int64_t>();
    AscendC::LocalTensor<C> wTile = wQueue.AllocTensor<C>();
    AscendC::LocalTensor<int64_t> divTile = divQueue.AllocTensor<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      int64_t div = 1;
      if (k <= 64) {
        AxisTaps<C>(ax, k, o0 + i, idx, w, &div);
      } else {
        KernelFail("resample_taps_custom: %lld taps per output exceed the kernel's 64", static_cast<long long>(k));
      }
      for (int64_t j = 0; j < k; ++j) {
        idxTile.SetValue(static_cast<uint32_t>(i * k + j), idx[j]);
        wTile.SetValue(static_cast<uint32_t>(i * k + j), w[j]);
      }
      divTile.SetValue(static_cast<uint32_t>(i), div);
    }
    idxQueue.EnQue(idxTile);
    wQueue.EnQue(wTile);
    divQueue.EnQue(divTile);
    AscendC::LocalTensor<int64_t> idxOut = idxQueue.DeQue<int64_t>();
    CopyTileOut(idxGm[static_cast<uint64_t>(o0 * k)], idxOut, static_cast<uint32_t>(n * k));
    idxQueue.FreeTensor(idxOut);
    AscendC::LocalTensor<C> wOut = wQueue.DeQue<C>();
    CopyTileOut(wGm[static_cast<uint64_t>(o0 * k)], wOut, static_cast<uint32_t>(n * k));
    wQueue.FreeTensor(wOut);
    AscendC::LocalTensor<int64_t> divOut = divQueue.DeQue<int64_t>();
    CopyTileOut(divGm[static_cast<uint64_t>(o0)], divOut, static_cast<uint32_t>(n));
    divQueue.FreeTensor(divOut);
  }
}

struct ResampleTiling {
  ResampleArgs args;
  TapLayout layout;
  int64_t units = 0, unitsPerBlock = 0;  // forward: rows (plane, od, oh); backward: planes
  uint32_t chunk = 0;
  bool copyOnly = false;
};

// One axis' tables in the taps workspace.
template <typename C>
struct AxisTable {
  const int64_t* idx;
  const C* w;
  const int64_t* div;
  int64_t k;
};

template <typename C>
__aicore__ inline AxisTable<C> TableOf(GM_ADDR taps, const TapLayout& l, int a) {
  return AxisTable<C>{reinterpret_cast<const int64_t*>(taps + l.idxOffset[a]),
                      reinterpret_cast<const C*>(taps + l.wOffset[a]),
                      reinterpret_cast<const int64_t*>(taps + l.divOffset[a]), l.taps[a]};
}

template <typename T>
__global__ __aicore__ void resample_custom(GM_ADDR x, GM_ADDR y, GM_ADDR taps, ResampleTiling t) {
  using C = ComputeOf<T>;
  const ResampleArgs& a = t.args;
  const ResampleAxis &D = a.axis[0], &H = a.axis[1], &W = a.axis[2];
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.unitsPerBlock;
  const int64_t last = std::min(t.units, first + t.unitsPerBlock);
  const int64_t inPlane = D.in * H.in * W.in, outPlane = D.out * H.out * W.out;
  AscendC::GlobalTensor<T> xGm, yGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), static_cast<uint64_t>(a.planes * inPlane));
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), static_cast<uint64_t>(a.planes * outPlane));
  const AxisTable<C> td = TableOf<C>(taps, t.layout, 0), th = TableOf<C>(taps, t.layout, 1),
                     tw = TableOf<C>(taps, t.layout, 2);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
  pipe.InitBuffer(outQueue, BUFFER_NUM, t.chunk * sizeof(T));
  AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, accHBuf;  // a row's sums over all taps, over one depth tap
  pipe.InitBuffer(accBuf, t.chunk * sizeof(C));
  pipe.InitBuffer(accHBuf, t.chunk * sizeof(C));
  C* acc = accBuf.Get<C>().GetPhyAddr();
  C* accH = accHBuf.Get<C>().GetPhyAddr();
  const T* xp = xGm.GetPhyAddr();
  for (int64_t r = first; r < last; ++r) {
    const int64_t p = r / (D.out * H.out), od = (r / H.out) % D.out, oh = r % H.out;
    const T* plane = xp + p * inPlane;
    const int64_t* dIdx = td.idx + od * td.k;
    const C* dW = td.w + od * td.k;
    const int64_t* hIdx = th.idx + oh * th.k;
    const C* hW = th.w + oh * th.k;
    const int64_t rowDiv = td.div[od] * th.div[oh];
    for (int64_t c0 = 0; c0 < W.out; c0 += t.chunk) {
      const uint32_t n = static_cast<uint32_t>(std::min<int64_t>(t.chunk, W.out - c0));
      AscendC::LocalTensor<T> values = outQueue.AllocTensor<T>();
      if (t.copyOnly) {
        for (uint32_t e = 0; e < n; ++e) {
          values.SetValue(e, plane[(dIdx[0] * H.in + hIdx[0]) * W.in + tw.idx[(c0 + e) * tw.k]]);
        }
      } else if (rowDiv == 0) {  // empty pooling windows
        for (uint32_t e = 0; e < n; ++e) values.SetValue(e, static_cast<T>(C(0)));
      } else {
        // Tap rows outside, output columns inside: each element's sums run in the same order.
        std::fill(acc, acc + n, C(0));
        for (int64_t i = 0; i < td.k; ++i) {
          if (dW[i] == C(0)) continue;
          std::fill(accH, accH + n, C(0));
          for (int64_t j = 0; j < th.k; ++j) {
            if (hW[j] == C(0)) continue;
            const T* line = plane + (dIdx[i] * H.in + hIdx[j]) * W.in;
            const int64_t* wIdx = tw.idx + c0 * tw.k;
            const C* wW = tw.w + c0 * tw.k;
            for (uint32_t e = 0; e < n; ++e, wIdx += tw.k, wW += tw.k) {
              if (tw.div[c0 + e] == 0) continue;  // an empty pooling window: its taps are not read
              C accW = C(0);
              for (int64_t m = 0; m < tw.k; ++m) {
                if (wW[m] != C(0)) accW += wW[m] * static_cast<C>(line[wIdx[m]]);
              }
              accH[e] += hW[j] * accW;
            }
          }
          for (uint32_t e = 0; e < n; ++e) acc[e] += dW[i] * accH[e];
        }
        for (uint32_t e = 0; e < n; ++e) {
          const int64_t div = rowDiv * tw.div[c0 + e];
          const int64_t divisor = a.divisorOverride != 0 ? a.divisorOverride : div;
          const C v = div == 0 ? C(0) : divisor == 1 ? acc[e] : acc[e] / static_cast<C>(divisor);
          values.SetValue(e, static_cast<T>(v));
        }
      }
      outQueue.EnQue(values);
      AscendC::LocalTensor<T> vOut = outQueue.DeQue<T>();
      CopyTileOut(yGm[static_cast<uint64_t>(r * W.out + c0)], vOut, n);
      outQueue.FreeTensor(vOut);
    }
  }
}

template <typename T>
__global__ __aicore__ void resample_backward_custom(GM_ADDR gradOutput, GM_ADDR gradInput, GM_ADDR taps,
                                                    ResampleTiling t) {
  using C = ComputeOf<T>;
  const ResampleArgs& a = t.args;
  const ResampleAxis &D = a.axis[0], &H = a.axis[1], &W = a.axis[2];
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.unitsPerBlock;
  const int64_t last = std::min(t.units, first + t.unitsPerBlock);
  const int64_t inPlane = D.in * H.in * W.in, outPlane = D.out * H.out * W.out;
  AscendC::GlobalTensor<T> goGm;
  AscendC::GlobalTensor<C> giGm;
  goGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gradOutput), static_cast<uint64_t>(a.planes * outPlane));
  giGm.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(gradInput), static_cast<uint64_t>(a.planes * inPlane));
  const AxisTable<C> td = TableOf<C>(taps, t.layout, 0), th = TableOf<C>(taps, t.layout, 1),
                     tw = TableOf<C>(taps, t.layout, 2);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> gradQueue;
  AscendC::TBuf<AscendC::TPosition::VECCALC> zeroBuf;
  pipe.InitBuffer(gradQueue, BUFFER_NUM, t.chunk * sizeof(T));
  pipe.InitBuffer(zeroBuf, t.chunk * sizeof(C));
  AscendC::LocalTensor<C> zeros = zeroBuf.Get<C>();
  AscendC::Duplicate(zeros, C(0), t.chunk);
  C* gi = giGm.GetPhyAddr();
  for (int64_t p = first; p < last; ++p) {
    for (int64_t e0 = 0; e0 < inPlane; e0 += t.chunk) {
      CopyTileOut(giGm[static_cast<uint64_t>(p * inPlane + e0)], zeros,
                  static_cast<uint32_t>(std::min<int64_t>(t.chunk, inPlane - e0)));
    }
    C* plane = gi + p * inPlane;
    for (int64_t od = 0; od < D.out; ++od) {
      const int64_t* dIdx = td.idx + od * td.k;
      const C* dW = td.w + od * td.k;
      for (int64_t oh = 0; oh < H.out; ++oh) {
        const int64_t* hIdx = th.idx + oh * th.k;
        const C* hW = th.w + oh * th.k;
        const int64_t rowDiv = td.div[od] * th.div[oh];
        const int64_t row = (p * D.out + od) * H.out + oh;
        for (int64_t c0 = 0; c0 < W.out; c0 += t.chunk) {
          const uint32_t n = static_cast<uint32_t>(std::min<int64_t>(t.chunk, W.out - c0));
          AscendC::LocalTensor<T> grad = gradQueue.AllocTensor<T>();
          CopyTileIn(grad, goGm[static_cast<uint64_t>(row * W.out + c0)], n);
          gradQueue.EnQue(grad);
          AscendC::LocalTensor<T> g = gradQueue.DeQue<T>();
          for (uint32_t e = 0; e < n; ++e) {
            const int64_t ow = c0 + e;
            const int64_t div = rowDiv * tw.div[ow];
            if (div == 0) continue;
            const int64_t divisor = a.divisorOverride != 0 ? a.divisorOverride : div;
            const C v = divisor == 1 ? static_cast<C>(g.GetValue(e))
                                     : static_cast<C>(g.GetValue(e)) / static_cast<C>(divisor);
            const int64_t* wIdx = tw.idx + ow * tw.k;
            const C* wW = tw.w + ow * tw.k;
            for (int64_t i = 0; i < td.k; ++i) {
              if (dW[i] == C(0)) continue;
              for (int64_t j = 0; j < th.k; ++j) {
                if (hW[j] == C(0)) continue;
                C* line = plane + (dIdx[i] * H.in + hIdx[j]) * W.in;
                const C wdh = dW[i] * hW[j];
                for (int64_t m = 0; m < tw.k; ++m) {
                  if (wW[m] != C(0)) line[wIdx[m]] += wdh * wW[m] * v;
                }
              }
            }
          }
          gradQueue.FreeTensor(g);
        }
      }
    }
  }
}

// A max window along one axis: [start, end) stepping by dilation.
__aicore__ inline void MaxWindow(const ResampleAxis& a, int64_t o, int64_t* start, int64_t* end, int64_t* step) {
  if (a.rule == AxisRule::kAdaptive) {
    *start = AdaptiveStart(o, a.out, a.in);
    *end = AdaptiveEnd(o, a.out, a.in);
    *step = 1;
  } else if (a.rule == AxisRule::kMaxWindow) {
    int64_t s = o * a.stride - a.pad;
    *end = std::min(s + (a.kernel - 1) * a.dilation + 1, a.in);
    while (s < 0) s += a.dilation;
    *start = s;
    *step = a.dilation;
  } else {
    *start = o;
    *end = o + 1;
    *step = 1;
  }
}

template <typename T>
__global__ __aicore__ void window_max_custom(GM_ADDR x, GM_ADDR y, GM_ADDR indices, ResampleTiling t) {
  using C = ComputeOf<T>;
  const ResampleArgs& a = t.args;
  const ResampleAxis &D = a.axis[0], &H = a.axis[1], &W = a.axis[2];
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.unitsPerBlock;
  const int64_t last = std::min(t.units, first + t.unitsPerBlock);
  const int64_t inPlane = D.in * H.in * W.in, outPlane = D.out * H.out * W.out;
  AscendC::GlobalTensor<T> xGm, yGm;
  AscendC::GlobalTensor<int64_t> iGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), static_cast<uint64_t>(a.planes * inPlane));
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), static_cast<uint64_t>(a.planes * outPlane));
  iGm.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(indices), static_cast<uint64_t>(a.planes * outPlane));
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> valueQueue, indexQueue;
  pipe.InitBuffer(valueQueue, BUFFER_NUM, t.chunk * sizeof(T));
  pipe.InitBuffer(indexQueue, BUFFER_NUM, t.chunk * sizeof(int64_t));
  const T* xp = xGm.GetPhyAddr();
  for (int64_t r = first; r < last; ++r) {
    const int64_t p = r / (D.out * H.out), od = (r / H.out) % D.out, oh = r % H.out;
    const T* plane = xp + p * inPlane;
    int64_t d0, d1, ds, h0, h1, hs;
    MaxWindow(D, od, &d0, &d1, &ds);
    MaxWindow(H, oh, &h0, &h1, &hs);
    for (int64_t c0 = 0; c0 < W.out; c0 += t.chunk) {
      const uint32_t n = static_cast<uint32_t>(std::min<int64_t>(t.chunk, W.out - c0));
      AscendC::LocalTensor<T> values = valueQueue.AllocTensor<T>();
      AscendC::LocalTensor<int64_t> index = indexQueue.AllocTensor<int64_t>();
      for (uint32_t e = 0; e < n; ++e) {
        int64_t w0, w1, ws;
        MaxWindow(W, c0 + e, &w0, &w1, &ws);
        // As PyTorch's CPU kernels: the window's first position at -inf, then a larger value
        // or any NaN replaces it.
        int64_t best = (d0 * H.in + h0) * W.in + w0;
        C bestValue = -INFINITY;
        for (int64_t d = d0; d < d1; d += ds) {
          for (int64_t h = h0; h < h1; h += hs) {
            for (int64_t w = w0; w < w1; w += ws) {
              const int64_t at = (d * H.in + h) * W.in + w;
              const C v = static_cast<C>(plane[at]);
              if (v > bestValue || isnan(v)) {
                bestValue = v;
                best = at;
              }
            }
          }
        }
        values.SetValue(e, static_cast<T>(bestValue));
        index.SetValue(e, best);
      }
      valueQueue.EnQue(values);
      indexQueue.EnQue(index);
      const uint64_t at = static_cast<uint64_t>(r * W.out + c0);
      AscendC::LocalTensor<T> vOut = valueQueue.DeQue<T>();
      CopyTileOut(yGm[at], vOut, n);
      valueQueue.FreeTensor(vOut);
      AscendC::LocalTensor<int64_t> iOut = indexQueue.DeQue<int64_t>();
      CopyTileOut(iGm[at], iOut, n);
      indexQueue.FreeTensor(iOut);
    }
  }
}

struct ScatterTiling {
  PlaneScatterArgs args;
  int64_t planesPerBlock = 0;
  uint32_t chunk = 0;
};

// Y: the element type of y (the compute type when adding, T when storing).
template <typename T, typename Y, bool kAdding>
__global__ __aicore__ void plane_scatter_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR y, ScatterTiling t) {
  const PlaneScatterArgs& a = t.args;
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.planesPerBlock;
  const int64_t last = std::min(a.planes, first + t.planesPerBlock);
  AscendC::GlobalTensor<T> xGm;
  AscendC::GlobalTensor<int64_t> iGm;
  AscendC::GlobalTensor<Y> yGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), static_cast<uint64_t>(a.planes * a.count));
  iGm.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(indices), static_cast<uint64_t>(a.planes * a.count));
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ Y*>(y), static_cast<uint64_t>(a.planes * a.inner));
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> valueQueue, indexQueue;
  AscendC::TBuf<AscendC::TPosition::VECCALC> zeroBuf;
  pipe.InitBuffer(valueQueue, BUFFER_NUM, t.chunk * sizeof(T));
  pipe.InitBuffer(indexQueue, BUFFER_NUM, t.chunk * sizeof(int64_t));
  pipe.InitBuffer(zeroBuf, t.chunk * sizeof(Y));
  AscendC::LocalTensor<Y> zeros = zeroBuf.Get<Y>();
  for (uint32_t e = 0; e < t.chunk; ++e) zeros.SetValue(e, static_cast<Y>(0));
  Y* yp = yGm.GetPhyAddr();
  for (int64_t p = first; p < last; ++p) {
    for (int64_t e0 = 0; e0 < a.inner; e0 += t.chunk) {
      CopyTileOut(yGm[static_cast<uint64_t>(p * a.inner + e0)], zeros,
                  static_cast<uint32_t>(std::min<int64_t>(t.chunk, a.inner - e0)));
    }
    for (int64_t e0 = 0; e0 < a.count; e0 += t.chunk) {
      const uint32_t n = static_cast<uint32_t>(std::min<int64_t>(t.chunk, a.count - e0));
      AscendC::LocalTensor<T> vIn = valueQueue.AllocTensor<T>();
      AscendC::LocalTensor<int64_t> iIn = indexQueue.AllocTensor<int64_t>();
      CopyTileIn(vIn, xGm[static_cast<uint64_t>(p * a.count + e0)], n);
      CopyTileIn(iIn, iGm[static_cast<uint64_t>(p * a.count + e0)], n);
      valueQueue.EnQue(vIn);
      indexQueue.EnQue(iIn);
      AscendC::LocalTensor<T> v = valueQueue.DeQue<T>();
      AscendC::LocalTensor<int64_t> idx = indexQueue.DeQue<int64_t>();
      for (uint32_t e = 0; e < n; ++e) {
        const int64_t at = idx.GetValue(e);
        if (at < 0 || at >= a.inner) {
          KernelFail("%s: index %lld is outside the plane of %lld elements", a.op, static_cast<long long>(at),
                     static_cast<long long>(a.inner));
        }
        if constexpr (kAdding) {
          yp[p * a.inner + at] += static_cast<Y>(v.GetValue(e));
        } else {
          yp[p * a.inner + at] = static_cast<Y>(v.GetValue(e));
        }
      }
      valueQueue.FreeTensor(v);
      indexQueue.FreeTensor(idx);
    }
  }
}

template <typename F>
aclError DispatchFloating(aclDataType dtype, const char* kernel, F&& f) {
  return DispatchKernelType(dtype, kernel, [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, float>::value || std::is_same<T, half>::value ||
                  std::is_same<T, bfloat16_t>::value || std::is_same<T, double>::value) {
      return f(tag);
    } else {
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel '%s' does not support data type %s", kernel,
                        DataTypeName(dtype));
    }
  });
}

bool IsFloating(aclDataType dtype) {
  return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16 || dtype == ACL_DOUBLE;
}

// Blocks for `units` of work of `bytes` in total: at most one per core, at least 64 KiB each.
int64_t BlocksFor(int64_t units, int64_t bytes) {
  const int64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  return std::max<int64_t>(1, std::min<int64_t>({cores, units, bytes / (64 * 1024)}));
}

uint32_t ChunkFor(int64_t elements) {
  return static_cast<uint32_t>(std::min<int64_t>(kChunk, (std::max<int64_t>(1, elements) + 31) / 32 * 32));
}

bool CopyOnly(const ResampleArgs& a) {
  for (const ResampleAxis& ax : a.axis) {
    if (ax.rule != AxisRule::kIdentity && ax.rule != AxisRule::kNearest && ax.rule != AxisRule::kNearestExact &&
        ax.rule != AxisRule::kReflect && ax.rule != AxisRule::kReplicate) {
      return false;
    }
  }
  return a.divisorOverride == 0;
}

int64_t OutPlane(const ResampleArgs& a) { return a.axis[0].out * a.axis[1].out * a.axis[2].out; }
int64_t InPlane(const ResampleArgs& a) { return a.axis[0].in * a.axis[1].in * a.axis[2].in; }

aclError LaunchTaps(const ResampleArgs& a, const TapLayout& layout, aclrtStream stream) {
  TapsTiling t;
  for (int i = 0; i < kResampleAxes; ++i) t.axis[i] = a.axis[i];
  t.layout = layout;
  if (ResampleAccumulateType(a.dtype) == ACL_DOUBLE) {
    return LaunchKernel("resample_taps_custom", kResampleAxes, stream, resample_taps_custom<double>, a.taps, t);
  }
  return LaunchKernel("resample_taps_custom", kResampleAxes, stream, resample_taps_custom<float>, a.taps, t);
}

}  // namespace

int64_t ResampleAxisTaps(const ResampleAxis& a, aclDataType dtype) {
  switch (a.rule) {
    case AxisRule::kLinear: return 2;
    case AxisRule::kCubic: return 4;
    case AxisRule::kAntialiasLinear:
    case AxisRule::kAntialiasCubic: {
      if (dtype == ACL_DOUBLE) {
        return static_cast<int64_t>(ceil(AntialiasSupport<double>(a.rule, AreaPixelScale<double>(a)))) * 2 + 1;
      }
      return static_cast<int64_t>(ceil(AntialiasSupport<float>(a.rule, AreaPixelScale<float>(a)))) * 2 + 1;
    }
    case AxisRule::kAvgWindow: return std::max<int64_t>(1, std::min(a.kernel, a.in));
    case AxisRule::kAdaptive: return std::max<int64_t>(1, std::min(a.in, (a.in + a.out - 1) / std::max<int64_t>(1, a.out) + 1));
    default: return 1;
  }
}

uint64_t ResampleTapsBytes(const ResampleArgs& args) { return MakeLayout(args).bytes; }

aclDataType ResampleAccumulateType(aclDataType dtype) { return dtype == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT; }

aclError LaunchResample(const ResampleArgs& args, aclrtStream stream) {
  if (args.planes == 0 || OutPlane(args) == 0) return ACL_SUCCESS;
  ResampleTiling t;
  t.args = args;
  t.layout = MakeLayout(args);
  t.copyOnly = CopyOnly(args);
  if (!t.copyOnly && !IsFloating(args.dtype)) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'resample_custom' (%s) does not support data type %s",
                      args.op, DataTypeName(args.dtype));
  }
  if (InPlane(args) == 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'resample_custom' (%s): an empty input has no values to read",
                      args.op);
  }
  aclError rc = LaunchTaps(args, t.layout, stream);
  if (rc != ACL_SUCCESS) return rc;
  t.units = args.planes * args.axis[0].out * args.axis[1].out;
  const int64_t blocks = BlocksFor(t.units, args.planes * OutPlane(args) * 4);
  t.unitsPerBlock = (t.units + blocks - 1) / blocks;
  t.chunk = ChunkFor(args.axis[2].out);
  const uint32_t blockDim = static_cast<uint32_t>((t.units + t.unitsPerBlock - 1) / t.unitsPerBlock);
  return DispatchKernelType(args.dtype, "resample_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("resample_custom", blockDim, stream, resample_custom<T>, args.x, args.y, args.taps, t);
  });
}

aclError LaunchResampleBackward(const ResampleArgs& args, aclrtStream stream) {
  if (args.planes == 0 || InPlane(args) == 0) return ACL_SUCCESS;
  ResampleTiling t;
  t.args = args;
  t.layout = MakeLayout(args);
  aclError rc = DispatchFloating(args.dtype, "resample_backward_custom", [](auto) { return ACL_SUCCESS; });
  if (rc != ACL_SUCCESS) return rc;
  rc = LaunchTaps(args, t.layout, stream);
  if (rc != ACL_SUCCESS) return rc;
  t.units = args.planes;
  const int64_t blocks = BlocksFor(t.units, args.planes * std::max(InPlane(args), OutPlane(args)) * 4);
  t.unitsPerBlock = (t.units + blocks - 1) / blocks;
  t.chunk = ChunkFor(std::max(args.axis[2].out, InPlane(args)));
  const uint32_t blockDim = static_cast<uint32_t>((t.units + t.unitsPerBlock - 1) / t.unitsPerBlock);
  return DispatchFloating(args.dtype, "resample_backward_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("resample_backward_custom", blockDim, stream, resample_backward_custom<T>, args.x, args.y,
                        args.taps, t);
  });
}

aclError LaunchWindowMax(const ResampleArgs& args, void* indices, aclrtStream stream) {
  if (args.planes == 0 || OutPlane(args) == 0) return ACL_SUCCESS;
  ResampleTiling t;
  t.args = args;
  t.units = args.planes * args.axis[0].out * args.axis[1].out;
  const int64_t blocks = BlocksFor(t.units, args.planes * InPlane(args) * 4);
  t.unitsPerBlock = (t.units + blocks - 1) / blocks;
  t.chunk = ChunkFor(args.axis[2].out);
  const uint32_t blockDim = static_cast<uint32_t>((t.units + t.unitsPerBlock - 1) / t.unitsPerBlock);
  return DispatchFloating(args.dtype, "window_max_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("window_max_custom", blockDim, stream, window_max_custom<T>, args.x, args.y, indices, t);
  });
}

aclError LaunchPlaneScatter(const PlaneScatterArgs& args, aclrtStream stream) {
  if (args.planes == 0 || args.inner == 0) return ACL_SUCCESS;
  ScatterTiling t;
  t.args = args;
  const int64_t blocks = BlocksFor(args.planes, args.planes * std::max(args.inner, args.count) * 4);
  t.planesPerBlock = (args.planes + blocks - 1) / blocks;
  t.chunk = ChunkFor(std::max(args.inner, args.count));
  const uint32_t blockDim = static_cast<uint32_t>((args.planes + t.planesPerBlock - 1) / t.planesPerBlock);
  if (args.mode == PlaneScatterMode::kAdd) {
    return DispatchFloating(args.dtype, "plane_scatter_custom", [&](auto tag) -> aclError {
      using T = typename decltype(tag)::type;
      return LaunchKernel("plane_scatter_custom", blockDim, stream, plane_scatter_custom<T, ComputeOf<T>, true>, args.x,
                          args.indices, args.y, t);
    });
  }
  return DispatchKernelType(args.dtype, "plane_scatter_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("plane_scatter_custom", blockDim, stream, plane_scatter_custom<T, T, false>, args.x, args.indices,
                        args.y, t);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
