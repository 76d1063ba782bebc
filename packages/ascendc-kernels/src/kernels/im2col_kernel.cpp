// im2col_custom / col2im_custom: the data movement of a 1-, 2- or 3-D convolution
// computed as matrix products on the cube unit (aclnnConvolution, aclnnConvolutionBackward).
// Every problem is 3-D; 1-D and 2-D ones have depth 1 (and height 1), which costs one
// always-true bound test per output row.
//
// im2col: each block takes a range of col rows; per row it fills a unified-buffer
// tile with the window elements (0 for padding) and writes it with DataCopy (rows of
// at most half a tile: as many whole rows per tile as fit, one copy out for them).
// Layout kRows: rows (batch, group, r) of L = outD * outH * outW columns (r = ((c * kd
// + a) * kh + i) * kw + j, plus an optional row of ones per group); kTransposed: rows
// (group, batch, l) of Kg columns, as many whole rows per tile as fit (gathered as
// window rows, then transposed in the unified buffer).
// col2im: each block takes a range of (batch, channel, depth) slices, a tile being a
// rectangle of a slice; every element sums (in float32, kernel depth, row then column
// order) the col entries that read it, so no two blocks write the same element.
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
  int64_t kg = 0;        // window rows per group (channels / groups * kd * kh * kw)
  int64_t rowsPerGroup = 0;  // kg (+ 1 with ones)
  int64_t rows = 0, rowsPerBlock = 0, rowLength = 0;
  uint32_t chunk = 0;
  bool transposed = false;
  uint32_t windowsPerTile = 0;  // transposed: whole windows per tile (0: windows longer than a tile)
  uint32_t rowsPerTile = 0;     // rows layout: whole rows per tile (0: rows longer than a tile)
};

constexpr uint32_t kMaxChunk = 4096;

// The output positions o of [lo, hi) whose input coordinate o * stride + base lies in [0, size),
// as [first, end) (empty: first == end): loops over them then need no bound test.
struct Inside {
  int64_t first, end;
};
__aicore__ inline Inside InsidePositions(int64_t base, int64_t stride, int64_t size, int64_t lo, int64_t hi) {
  const int64_t first = base >= 0 ? 0 : (stride - 1 - base) / stride;
  const int64_t end = base >= size ? 0 : (size - base + stride - 1) / stride;
  const int64_t f = std::clamp(first, lo, hi);
  return {f, std::clamp(end, f, hi)};
}

// Elements [c0, c0 + n) of window row r (channel, kernel depth a, row i, column j) of the column
// matrix: one input value (or a zero of the padding) per output position (od, oh, ow), one output
// row at a time: zeros before and after the positions that read inside the input line, a strided
// copy (a plain one at stride 1) between.
template <typename T>
__aicore__ inline void GatherWindowRow(const WindowGeometry& g, int64_t cgBase, int64_t r, int64_t c0, uint32_t n,
                                       const T* plane, T* dst) {
  const int64_t khw = g.kh * g.kw, kk = g.kd * khw;
  const int64_t c = cgBase + r / kk;
  const int64_t a = (r % kk) / khw, i = (r % khw) / g.kw, j = r % g.kw;
  const int64_t base = j * g.dw - g.pw;  // input column of output column ow: ow * sw + base
  const T* channel = plane + c * g.d * g.h * g.w;
  const T zero = static_cast<T>(0.0f);
  const Inside row = InsidePositions(base, g.sw, g.w, 0, g.outW);  // the same columns in every output row
  const int64_t outRow = c0 / g.outW;
  int64_t od = outRow / g.outH, oh = outRow % g.outH, ow = c0 % g.outW;
  uint32_t k = 0;
  while (k < n) {  // one output depth at a time (once for 1-D and 2-D)
    const uint32_t depthEnd = static_cast<uint32_t>(std::min<int64_t>(n, k + (g.outH - oh) * g.outW - ow));
    const int64_t z = od * g.sd - g.pd + a * g.dd;
    if (z < 0 || z >= g.d) {  // a padding depth: every position reads 0
      std::fill(dst + k, dst + depthEnd, zero);
      k = depthEnd;
    } else {
      const T* slab = channel + z * g.h * g.w;
      while (k < depthEnd) {
        const int64_t run = std::min<int64_t>(depthEnd - k, g.outW - ow);
        T* out = dst + k;  // out[o - ow] is output column o of this row
        const int64_t h = oh * g.sh - g.ph + i * g.dh;
        if (h < 0 || h >= g.h) {
          std::fill(out, out + run, zero);
        } else {
          const T* line = slab + h * g.w;
          const int64_t first = std::clamp(row.first, ow, ow + run);
          const Inside in{first, std::clamp(row.end, first, ow + run)};
          std::fill(out, out + (in.first - ow), zero);
          if (in.end == in.first) {
          } else if (g.sw == 1) {
            std::copy(line + (in.first + base), line + (in.end + base), out + (in.first - ow));
          } else {
            for (int64_t o = in.first; o < in.end; ++o) out[o - ow] = line[o * g.sw + base];
          }
          std::fill(out + (in.end - ow), out + run, zero);
        }
        k += static_cast<uint32_t>(run);
        ow = 0;
        ++oh;
      }
    }
    oh = 0;
    ++od;
  }
}

// The transposed layout, for windows longer than a tile: elements [r0, r0 + n) of the window of
// output position l, walking (channel, kernel depth, row, column) with carries instead of divisions.
template <typename T>
__aicore__ inline void GatherWindowColumn(const WindowGeometry& g, int64_t cgBase, int64_t l, int64_t r0, uint32_t n,
                                          const T* plane, T* dst) {
  const int64_t khw = g.kh * g.kw, kk = g.kd * khw;
  const int64_t od = l / (g.outH * g.outW), oh = (l / g.outW) % g.outH, ow = l % g.outW;
  int64_t c = cgBase + r0 / kk, a = (r0 % kk) / khw, i = (r0 % khw) / g.kw, j = r0 % g.kw;
  for (uint32_t k = 0; k < n; ++k) {
    const int64_t z = od * g.sd - g.pd + a * g.dd, h = oh * g.sh - g.ph + i * g.dh, w = ow * g.sw - g.pw + j * g.dw;
    const bool outside = z < 0 || z >= g.d || h < 0 || h >= g.h || w < 0 || w >= g.w;
    dst[k] = outside ? static_cast<T>(0.0f) : plane[((c * g.d + z) * g.h + h) * g.w + w];
    if (++j == g.kw) {
      j = 0;
      if (++i == g.kh) {
        i = 0;
        if (++a == g.kd) {
          a = 0;
          ++c;
        }
      }
    }
  }
}

// The transposed layout, m whole windows (positions l .. l + m - 1) at a time: their window rows are
// gathered position-contiguous into scratch [Kg, m], then transposed into dst [m, Kg].
template <typename T>
__aicore__ inline void GatherWindows(const WindowGeometry& g, int64_t cgBase, int64_t kg, int64_t l, uint32_t m,
                                     const T* plane, T* scratch, T* dst) {
  for (int64_t r = 0; r < kg; ++r) GatherWindowRow(g, cgBase, r, l, m, plane, scratch + r * m);
  for (uint32_t q = 0; q < m; ++q) {
    for (int64_t r = 0; r < kg; ++r) dst[q * kg + r] = scratch[r * m + q];
  }
}

template <typename T>
__global__ __aicore__ void im2col_custom(GM_ADDR x, GM_ADDR col, Im2colTiling t) {
  const WindowGeometry& g = t.g;
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.rowsPerBlock;
  const int64_t last = std::min(t.rows, first + t.rowsPerBlock);
  AscendC::GlobalTensor<T> xGm, colGm;
  const int64_t volume = g.d * g.h * g.w, L = g.outD * g.outH * g.outW;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), static_cast<uint64_t>(g.batch * g.channels * volume));
  colGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(col), static_cast<uint64_t>(t.rows * t.rowLength));
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> queue;
  pipe.InitBuffer(queue, BUFFER_NUM, t.chunk * sizeof(T));
  const int64_t cg = g.channels / t.groups;
  const T* xp = xGm.GetPhyAddr();
  if (t.transposed && t.windowsPerTile > 0) {  // rows (group, batch, l), several per tile
    AscendC::TBuf<AscendC::TPosition::VECCALC> scratchBuf;
    pipe.InitBuffer(scratchBuf, t.chunk * sizeof(T));
    T* scratch = reinterpret_cast<T*>(scratchBuf.Get<T>().GetPhyAddr());
    for (int64_t row = first; row < last;) {
      const int64_t grp = row / (g.batch * L), b = (row / L) % g.batch, l = row % L;
      const uint32_t m = static_cast<uint32_t>(std::min<int64_t>({t.windowsPerTile, last - row, L - l}));
      AscendC::LocalTensor<T> tile = queue.AllocTensor<T>();
      GatherWindows(g, grp * cg, t.kg, l, m, xp + b * g.channels * volume, scratch,
                    reinterpret_cast<T*>(tile.GetPhyAddr()));
      queue.EnQue(tile);
      AscendC::LocalTensor<T> out = queue.DeQue<T>();
      CopyTileOut(colGm[static_cast<uint64_t>(row * t.kg)], out, static_cast<uint32_t>(m * t.kg));
      queue.FreeTensor(out);
      row += m;
    }
    return;
  }
  if (!t.transposed && t.rowsPerTile > 0) {  // rows (batch, group, r), several per tile
    for (int64_t row = first; row < last;) {
      const uint32_t m = static_cast<uint32_t>(std::min<int64_t>(t.rowsPerTile, last - row));
      AscendC::LocalTensor<T> tile = queue.AllocTensor<T>();
      T* dst = reinterpret_cast<T*>(tile.GetPhyAddr());
      for (uint32_t q = 0; q < m; ++q, dst += t.rowLength) {
        const int64_t b = (row + q) / (t.groups * t.rowsPerGroup);
        const int64_t grp = ((row + q) / t.rowsPerGroup) % t.groups, r = (row + q) % t.rowsPerGroup;
        if (r == t.kg) {  // the ones row
          std::fill(dst, dst + t.rowLength, static_cast<T>(1.0f));
        } else {
          GatherWindowRow(g, grp * cg, r, 0, static_cast<uint32_t>(t.rowLength), xp + b * g.channels * volume, dst);
        }
      }
      queue.EnQue(tile);
      AscendC::LocalTensor<T> out = queue.DeQue<T>();
      CopyTileOut(colGm[static_cast<uint64_t>(row * t.rowLength)], out, static_cast<uint32_t>(m * t.rowLength));
      queue.FreeTensor(out);
      row += m;
    }
    return;
  }
  for (int64_t row = first; row < last; ++row) {
    // (batch, group, r) or (group, batch, l)
    int64_t b, grp, r = 0, l = 0;
    if (t.transposed) {
      grp = row / (g.batch * L);
      const int64_t rest = row % (g.batch * L);
      b = rest / L;
      l = rest % L;
    } else {
      b = row / (t.groups * t.rowsPerGroup);
      grp = (row / t.rowsPerGroup) % t.groups;
      r = row % t.rowsPerGroup;
    }
    const T* plane = xp + b * g.channels * volume;
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
  int64_t slices = 0, slicesPerBlock = 0;  // a slice: one depth of one (batch, channel) volume
  int64_t tileRows = 0, tileCols = 0;      // a tile: a rectangle of one slice
  const float* bias = nullptr;
};

// col2im of one rectangle [h0, h0 + rows) x [w0, w0 + cols) of depth z of a (batch, channel)
// volume's float32 accumulator: every col entry (kernel depth a, row i, column j, output position)
// that reads an element of it is added, in (a, i, j) order as each element's sum runs, walking
// whole output rows with no bound tests; then `bias` when there is one.
template <typename T>
__aicore__ inline void AccumulateWindows(const WindowGeometry& g, const T* rows, int64_t z, int64_t h0,
                                         int64_t rowsHere, int64_t w0, int64_t cols, const float* bias,
                                         float* acc) {
  const int64_t L = g.outD * g.outH * g.outW;
  std::fill(acc, acc + rowsHere * cols, 0.0f);
  for (int64_t a = 0; a < g.kd; ++a) {
    const int64_t zBase = z + g.pd - a * g.dd;  // od * sd == zBase reads depth z
    if (zBase < 0 || zBase % g.sd != 0 || zBase / g.sd >= g.outD) continue;
    const int64_t od = zBase / g.sd;
    for (int64_t i = 0; i < g.kh; ++i) {
      const int64_t hBase = i * g.dh - g.ph - h0;  // accumulator row of output row oh: oh * sh + hBase
      const Inside ohs = InsidePositions(hBase, g.sh, rowsHere, 0, g.outH);
      for (int64_t j = 0; j < g.kw; ++j) {
        const int64_t wBase = j * g.dw - g.pw - w0;
        const Inside ows = InsidePositions(wBase, g.sw, cols, 0, g.outW);
        if (ows.end == ows.first) continue;
        const T* src = rows + ((a * g.kh + i) * g.kw + j) * L + od * g.outH * g.outW;
        for (int64_t oh = ohs.first; oh < ohs.end; ++oh) {
          float* d = acc + (oh * g.sh + hBase) * cols;
          const T* line = src + oh * g.outW;
          if (g.sw == 1) {
            float* __restrict dd = d + (ows.first + wBase);
            const T* __restrict ss = line + ows.first;
            for (int64_t e = 0; e < ows.end - ows.first; ++e) dd[e] += static_cast<float>(ss[e]);
          } else {
            for (int64_t ow = ows.first; ow < ows.end; ++ow) d[ow * g.sw + wBase] += static_cast<float>(line[ow]);
          }
        }
      }
    }
  }
  if (bias != nullptr) {  // last, as CPU adds it to the finished sums (an empty sum plus -0 is +0)
    for (int64_t e = 0; e < rowsHere * cols; ++e) acc[e] += *bias;
  }
}

template <typename T>
__global__ __aicore__ void col2im_custom(GM_ADDR col, GM_ADDR x, Col2imTiling t) {
  const WindowGeometry& g = t.g;
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.slicesPerBlock;
  const int64_t last = std::min(t.slices, first + t.slicesPerBlock);
  const int64_t kk = g.kd * g.kh * g.kw, L = g.outD * g.outH * g.outW, hw = g.h * g.w;
  const int64_t planes = t.slices / g.d;
  AscendC::GlobalTensor<T> colGm;
  AscendC::GlobalTensor<float> xGm;
  colGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(col), static_cast<uint64_t>(planes * kk * L));
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), static_cast<uint64_t>(t.slices * hw));
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> queue;
  pipe.InitBuffer(queue, BUFFER_NUM, static_cast<uint32_t>(t.tileRows * t.tileCols * sizeof(float)));
  const T* cp = colGm.GetPhyAddr();
  AscendC::GlobalTensor<float> biasGm;
  if (t.bias != nullptr) biasGm.SetGlobalBuffer(const_cast<__gm__ float*>(t.bias), static_cast<uint64_t>(g.channels));
  for (int64_t s = first; s < last; ++s) {
    const int64_t p = s / g.d, z = s % g.d;
    const T* rows = cp + p * kk * L;  // (b, c) is row block p of col [batch, channels * kk, L]
    const float biasValue = t.bias != nullptr ? biasGm.GetValue(static_cast<uint64_t>(p % g.channels)) : 0.0f;
    const float* bias = t.bias != nullptr ? &biasValue : nullptr;
    for (int64_t h0 = 0; h0 < g.h; h0 += t.tileRows) {
      const int64_t rowsHere = std::min(t.tileRows, g.h - h0);
      for (int64_t w0 = 0; w0 < g.w; w0 += t.tileCols) {
        const int64_t cols = std::min(t.tileCols, g.w - w0);
        AscendC::LocalTensor<float> tile = queue.AllocTensor<float>();
        AccumulateWindows(g, rows, z, h0, rowsHere, w0, cols, bias, reinterpret_cast<float*>(tile.GetPhyAddr()));
        queue.EnQue(tile);
        AscendC::LocalTensor<float> out = queue.DeQue<float>();
        if (cols == g.w) {
          CopyTileOut(xGm[static_cast<uint64_t>(s * hw + h0 * g.w)], out, static_cast<uint32_t>(rowsHere * cols));
        } else {
          for (int64_t r = 0; r < rowsHere; ++r) {
            CopyTileOut(xGm[static_cast<uint64_t>(s * hw + (h0 + r) * g.w + w0)], out[static_cast<uint32_t>(r * cols)],
                        static_cast<uint32_t>(cols));
          }
        }
        queue.FreeTensor(out);
      }
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
  t.kg = g.channels / args.groups * g.kd * g.kh * g.kw;
  t.transposed = args.layout == Im2colLayout::kTransposed;
  const int64_t L = g.outD * g.outH * g.outW;
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
  if (t.transposed && t.kg <= kMaxChunk) {
    t.chunk = kMaxChunk;
    t.windowsPerTile = static_cast<uint32_t>(kMaxChunk / t.kg);
  } else if (!t.transposed && t.rowLength <= kMaxChunk / 2) {  // short rows: one copy out per several
    t.rowsPerTile = static_cast<uint32_t>(kMaxChunk / t.rowLength);
    t.chunk = kMaxChunk;
  }
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
  t.bias = args.bias;
  t.slices = args.g.batch * args.g.channels * args.g.d;
  const int64_t hw = args.g.h * args.g.w;
  if (t.slices == 0 || hw == 0) return ACL_SUCCESS;
  const int64_t blocks = BlocksFor(t.slices, hw * args.g.kd * args.g.kh * args.g.kw);
  t.slicesPerBlock = (t.slices + blocks - 1) / blocks;
  t.tileCols = std::min<int64_t>(args.g.w, kMaxChunk);
  t.tileRows = std::max<int64_t>(1, std::min<int64_t>(args.g.h, kMaxChunk / t.tileCols));
  const uint32_t blockDim = static_cast<uint32_t>((t.slices + t.slicesPerBlock - 1) / t.slicesPerBlock);
  const void* col = args.col;
  void* x = args.x;
  return DispatchConvType(args.dtype, "col2im_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("col2im_custom", blockDim, stream, col2im_custom<T>, col, x, t);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
