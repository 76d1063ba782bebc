// im2col_custom / col2im_custom: the data movement of a 2-D convolution computed
// as matrix products on the cube unit (aclnnConvolution, aclnnConvolutionBackward).
//
// im2col: each block takes a range of col rows; per row it fills a unified-buffer
// tile with the window elements (0 for padding) and writes it with DataCopy.
// Layout kRows: rows (batch, group, r) of L = outH * outW columns (r = (c * kh + i) *
// kw + j, plus an optional row of ones per group); kTransposed: rows (group,
// batch, l) of Kg columns.
// col2im: each block takes a range of (batch, channel) planes; every element of
// a plane gathers (float32 accumulation) the col entries that read it, so no two
// blocks write the same element.
#include <algorithm>
#include <type_traits>

#include "ascendc_sim/launch.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_helpers.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct Im2colTiling {
  WindowGeometry g;
  int64_t groups = 1;
  int64_t kg = 0;        // window rows per group (channels / groups * kh * kw)
  int64_t rowsPerGroup = 0;  // kg (+ 1 with ones)
  int64_t rows = 0, rowsPerBlock = 0, rowLength = 0;
  uint32_t chunk = 0;
  bool transposed = false;
};

constexpr uint32_t kMaxChunk = 4096;

// The x element read by window row r (within a group) at output position l, or -1 for padding.
// Elements [c0, c0 + n) of window row r (channel, kernel row i, kernel column j) of the column
// matrix: one input value (or a zero of the padding) per output position (oh, ow), walked in
// order with the divisions done once per row rather than per element.
template <typename T>
__aicore__ inline void GatherWindowRow(const WindowGeometry& g, int64_t cgBase, int64_t r, int64_t c0, uint32_t n,
                                       const T* plane, T* dst) {
  const int64_t kk = g.kh * g.kw;
  const int64_t c = cgBase + r / kk;
  const int64_t i = (r % kk) / g.kw, j = r % g.kw;
  const T* channel = plane + c * g.h * g.w;
  int64_t oh = c0 / g.outW, ow = c0 % g.outW;
  uint32_t k = 0;
  while (k < n) {
    const uint32_t run = static_cast<uint32_t>(std::min<int64_t>(n - k, g.outW - ow));
    const int64_t h = oh * g.sh - g.ph + i * g.dh;
    if (h < 0 || h >= g.h) {
      std::fill(dst + k, dst + k + run, static_cast<T>(0.0f));
    } else {
      const T* line = channel + h * g.w;
      int64_t w = ow * g.sw - g.pw + j * g.dw;
      for (uint32_t e = 0; e < run; ++e, w += g.sw) {
        dst[k + e] = (w < 0 || w >= g.w) ? static_cast<T>(0.0f) : line[w];
      }
    }
    k += run;
    ow = 0;
    ++oh;
  }
}

// The transposed layout: elements [r0, r0 + n) of the window of output position l, walking
// (channel, kernel row, kernel column) with carries instead of divisions.
template <typename T>
__aicore__ inline void GatherWindowColumn(const WindowGeometry& g, int64_t cgBase, int64_t l, int64_t r0, uint32_t n,
                                          const T* plane, T* dst) {
  const int64_t kk = g.kh * g.kw;
  const int64_t oh = l / g.outW, ow = l % g.outW;
  int64_t c = cgBase + r0 / kk, i = (r0 % kk) / g.kw, j = r0 % g.kw;
  for (uint32_t k = 0; k < n; ++k) {
    const int64_t h = oh * g.sh - g.ph + i * g.dh, w = ow * g.sw - g.pw + j * g.dw;
    dst[k] = (h < 0 || h >= g.h || w < 0 || w >= g.w) ? static_cast<T>(0.0f) : plane[(c * g.h + h) * g.w + w];
    if (++j == g.kw) {
      j = 0;
      if (++i == g.kh) {
        i = 0;
        ++c;
      }
    }
  }
}

template <typename T>
__global__ __aicore__ void im2col_custom(GM_ADDR x, GM_ADDR col, Im2colTiling t) {
  const WindowGeometry& g = t.g;
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.rowsPerBlock;
  const int64_t last = std::min(t.rows, first + t.rowsPerBlock);
  AscendC::GlobalTensor<T> xGm, colGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), static_cast<uint64_t>(g.batch * g.channels * g.h * g.w));
  colGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(col), static_cast<uint64_t>(t.rows * t.rowLength));
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> queue;
  pipe.InitBuffer(queue, BUFFER_NUM, t.chunk * sizeof(T));
  const int64_t cg = g.channels / t.groups;
  const T* xp = xGm.GetPhyAddr();
  for (int64_t row = first; row < last; ++row) {
    // (batch, group, r) or (group, batch, l)
    int64_t b, grp, r = 0, l = 0;
    if (t.transposed) {
      grp = row / (g.batch * g.outH * g.outW);
      const int64_t rest = row % (g.batch * g.outH * g.outW);
      b = rest / (g.outH * g.outW);
      l = rest % (g.outH * g.outW);
    } else {
      b = row / (t.groups * t.rowsPerGroup);
      grp = (row / t.rowsPerGroup) % t.groups;
      r = row % t.rowsPerGroup;
    }
    const T* plane = xp + b * g.channels * g.h * g.w;
    for (int64_t c0 = 0; c0 < t.rowLength; c0 += t.chunk) {
      const uint32_t n = static_cast<uint32_t>(std::min<int64_t>(t.chunk, t.rowLength - c0));
      AscendC::LocalTensor<T> tile = queue.AllocTensor<T>();
      if (t.transposed) {
        GatherWindowColumn(g, grp * cg, l, c0, n, plane, reinterpret_cast<T*>(tile.GetPhyAddr()));
      } else if (r == t.kg) {  // the ones row
        AscendC::Duplicate(tile, static_cast<T>(1.0f), n);
      } else {
        GatherWindowRow(g, grp * cg, r, c0, n, plane, reinterpret_cast<T*>(tile.GetPhyAddr()));
      }
      queue.EnQue(tile);
      AscendC::LocalTensor<T> out = queue.DeQue<T>();
      CopyTileOut(colGm[static_cast<uint64_t>(row * t.rowLength + c0)], out, n);
      queue.FreeTensor(out);
    }
  }
}

struct Col2imTiling {
  WindowGeometry g;
  int64_t planes = 0, planesPerBlock = 0;
  uint32_t chunk = 0;
};

template <typename T>
__global__ __aicore__ void col2im_custom(GM_ADDR col, GM_ADDR x, Col2imTiling t) {
  const WindowGeometry& g = t.g;
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.planesPerBlock;
  const int64_t last = std::min(t.planes, first + t.planesPerBlock);
  const int64_t kk = g.kh * g.kw, L = g.outH * g.outW, hw = g.h * g.w;
  AscendC::GlobalTensor<T> colGm;
  AscendC::GlobalTensor<float> xGm;
  colGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(col), static_cast<uint64_t>(t.planes * kk * L));
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), static_cast<uint64_t>(t.planes * hw));
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> queue;
  pipe.InitBuffer(queue, BUFFER_NUM, t.chunk * sizeof(float));
  const T* cp = colGm.GetPhyAddr();
  for (int64_t p = first; p < last; ++p) {
    const T* rows = cp + p * kk * L;  // (b, c) is row block p of col [batch, channels * kk, L]
    for (int64_t e0 = 0; e0 < hw; e0 += t.chunk) {
      const uint32_t n = static_cast<uint32_t>(std::min<int64_t>(t.chunk, hw - e0));
      AscendC::LocalTensor<float> tile = queue.AllocTensor<float>();
      for (uint32_t k = 0; k < n; ++k) {
        const int64_t h = (e0 + k) / g.w, w = (e0 + k) % g.w;
        float sum = 0.0f;
        for (int64_t i = 0; i < g.kh; ++i) {
          const int64_t hh = h + g.ph - i * g.dh;
          if (hh < 0 || hh % g.sh != 0 || hh / g.sh >= g.outH) continue;
          for (int64_t j = 0; j < g.kw; ++j) {
            const int64_t ww = w + g.pw - j * g.dw;
            if (ww < 0 || ww % g.sw != 0 || ww / g.sw >= g.outW) continue;
            sum += static_cast<float>(rows[(i * g.kw + j) * L + (hh / g.sh) * g.outW + ww / g.sw]);
          }
        }
        tile.SetValue(k, sum);
      }
      queue.EnQue(tile);
      AscendC::LocalTensor<float> out = queue.DeQue<float>();
      CopyTileOut(xGm[static_cast<uint64_t>(p * hw + e0)], out, n);
      queue.FreeTensor(out);
    }
  }
}

template <typename F>
aclError DispatchConvType(aclDataType dtype, const char* kernel, F&& f) {
  return DispatchKernelType(dtype, kernel, [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, float>::value || std::is_same<T, half>::value ||
                  std::is_same<T, bfloat16_t>::value) {
      return f(tag);
    } else {
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel '%s' does not support data type %s", kernel,
                        DataTypeName(dtype));
    }
  });
}

int64_t BlocksFor(int64_t items, int64_t itemElements) {
  const int64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const int64_t bytes = items * std::max<int64_t>(1, itemElements) * 4;
  return std::max<int64_t>(1, std::min<int64_t>({cores, items, bytes / (64 * 1024)}));
}

}  // namespace

aclError LaunchIm2col(const Im2colArgs& args, aclrtStream stream) {
  const WindowGeometry& g = args.g;
  if (args.groups <= 0 || g.channels % args.groups != 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'im2col_custom': %lld channels in %lld groups",
                      static_cast<long long>(g.channels), static_cast<long long>(args.groups));
  }
  Im2colTiling t;
  t.g = g;
  t.groups = args.groups;
  t.kg = g.channels / args.groups * g.kh * g.kw;
  t.transposed = args.layout == Im2colLayout::kTransposed;
  const int64_t L = g.outH * g.outW;
  if (t.transposed) {
    t.rows = args.groups * g.batch * L;
    t.rowLength = t.kg;
  } else {
    t.rowsPerGroup = t.kg + (args.ones ? 1 : 0);
    t.rows = g.batch * args.groups * t.rowsPerGroup;
    t.rowLength = L;
  }
  if (t.rows == 0 || t.rowLength == 0) return ACL_SUCCESS;
  const int64_t blocks = BlocksFor(t.rows, t.rowLength);
  t.rowsPerBlock = (t.rows + blocks - 1) / blocks;
  t.chunk = static_cast<uint32_t>(std::min<int64_t>(kMaxChunk, (t.rowLength + 31) / 32 * 32));
  const uint32_t blockDim = static_cast<uint32_t>((t.rows + t.rowsPerBlock - 1) / t.rowsPerBlock);
  const void* x = args.x;
  void* col = args.col;
  return DispatchConvType(args.dtype, "im2col_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("im2col_custom", blockDim, stream, im2col_custom<T>, x, col, t);
  });
}

aclError LaunchCol2im(const Col2imArgs& args, aclrtStream stream) {
  Col2imTiling t;
  t.g = args.g;
  t.planes = args.g.batch * args.g.channels;
  const int64_t hw = args.g.h * args.g.w;
  if (t.planes == 0 || hw == 0) return ACL_SUCCESS;
  const int64_t blocks = BlocksFor(t.planes, hw * args.g.kh * args.g.kw);
  t.planesPerBlock = (t.planes + blocks - 1) / blocks;
  t.chunk = static_cast<uint32_t>(std::min<int64_t>(kMaxChunk, (hw + 31) / 32 * 32));
  const uint32_t blockDim = static_cast<uint32_t>((t.planes + t.planesPerBlock - 1) / t.planesPerBlock);
  const void* col = args.col;
  void* x = args.x;
  return DispatchConvType(args.dtype, "col2im_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("col2im_custom", blockDim, stream, col2im_custom<T>, col, x, t);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
