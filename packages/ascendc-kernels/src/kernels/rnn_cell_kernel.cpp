// rnn_cell_custom, rnn_cell_backward_custom and rnn_bias_grad_custom (rnn_cell_api.h).
//
// Blocks take ranges of rows; a row is processed in chunks of the hidden size: the gate
// values are read from global memory, the cell computed in the compute type (float32, double
// for double) and each output segment of the chunk written from a unified-buffer tile. The bias
// gradients are column sums of the gate gradients: blocks take ranges of columns and add the
// rows in order, so the result does not depend on the schedule.
#include <math.h>

#include <algorithm>
#include <type_traits>

#include "ascendc_sim/launch.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_helpers.h"
#include "kernels/rnn_cell_api.h"

namespace ascendc_sim {
namespace kernels {
namespace {

template <typename T>
using ComputeOf = typename std::conditional<std::is_same<T, double>::value, double, float>::type;

constexpr uint32_t kChunk = 1024;
constexpr int kMaxSegments = 5;

struct CellTiling {
  RnnCellArgs args;
  int64_t rowsPerBlock = 0;
  uint32_t chunk = 0;
};

struct CellBackwardTiling {
  RnnCellBackwardArgs args;
  int64_t rowsPerBlock = 0;
  uint32_t chunk = 0;
};

template <typename C>
__aicore__ inline C Sigmoid(C x) { return C(1) / (C(1) + exp(-x)); }

template <typename T>
__aicore__ inline ComputeOf<T> Load(const T* p, int64_t at) { return p == nullptr ? ComputeOf<T>(0) : static_cast<ComputeOf<T>>(p[at]); }

// Segments of `n` elements in one unified-buffer tile, written to their global rows.
template <typename T>
class SegmentTiles {
 public:
  __aicore__ inline void Init(AscendC::TPipe& pipe, uint32_t chunk) {
    chunk_ = chunk;
    pipe.InitBuffer(buf_, kMaxSegments * chunk * sizeof(T));
    tile_ = buf_.Get<T>();
  }
  __aicore__ inline void Set(int segment, uint32_t e, ComputeOf<T> v) {
    tile_.SetValue(static_cast<uint32_t>(segment) * chunk_ + e, static_cast<T>(v));
  }
  __aicore__ inline void Write(int segment, const AscendC::GlobalTensor<T>& dst, uint32_t n) {
    CopyTileOut(dst, tile_[static_cast<uint32_t>(segment) * chunk_], n);
  }

 private:
  AscendC::TBuf<AscendC::TPosition::VECOUT> buf_;
  AscendC::LocalTensor<T> tile_;
  uint32_t chunk_ = 0;
};

template <typename T>
__global__ __aicore__ void rnn_cell_custom(CellTiling t) {
  using C = ComputeOf<T>;
  const RnnCellArgs& a = t.args;
  const int64_t H = a.hidden;
  const int gates = a.kind == RnnCellKind::kLstm ? 4 : 3;
  const int stored = a.kind == RnnCellKind::kLstm ? 4 : 5;
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.rowsPerBlock;
  const int64_t last = std::min(a.rows, first + t.rowsPerBlock);
  const T* ig = static_cast<const T*>(a.inputGates);
  const T* hg = static_cast<const T*>(a.hiddenGates);
  const T* state = static_cast<const T*>(a.state);
  const T* ib = static_cast<const T*>(a.inputBias);
  const T* hb = static_cast<const T*>(a.hiddenBias);
  AscendC::GlobalTensor<T> hyGm, cyGm, storageGm;
  hyGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.hy), static_cast<uint64_t>(a.rows * H));
  if (a.cy != nullptr) cyGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.cy), static_cast<uint64_t>(a.rows * H));
  storageGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.storage), static_cast<uint64_t>(a.rows * stored * H));
  AscendC::TPipe pipe;
  SegmentTiles<T> out, keep;
  out.Init(pipe, t.chunk);
  keep.Init(pipe, t.chunk);
  for (int64_t r = first; r < last; ++r) {
    const int64_t row = r * gates * H;
    for (int64_t h0 = 0; h0 < H; h0 += t.chunk) {
      const uint32_t n = static_cast<uint32_t>(std::min<int64_t>(t.chunk, H - h0));
      for (uint32_t e = 0; e < n; ++e) {
        const int64_t h = h0 + e;
        const C s = static_cast<C>(state[r * H + h]);
        if (a.kind == RnnCellKind::kLstm) {
          C g[4];
          for (int k = 0; k < 4; ++k) {
            g[k] = Load(ig, row + k * H + h) + Load(hg, row + k * H + h) + Load(ib, k * H + h) + Load(hb, k * H + h);
          }
          const C i = Sigmoid(g[0]), f = Sigmoid(g[1]), c = tanh(g[2]), o = Sigmoid(g[3]);
          const C cy = f * s + i * c;
          out.Set(0, e, o * tanh(cy));
          out.Set(1, e, cy);
          keep.Set(0, e, i);
          keep.Set(1, e, f);
          keep.Set(2, e, c);
          keep.Set(3, e, o);
        } else {
          const C ir = Load(ig, row + h) + Load(ib, h), ii = Load(ig, row + H + h) + Load(ib, H + h),
                  in = Load(ig, row + 2 * H + h) + Load(ib, 2 * H + h);
          const C hr = Load(hg, row + h) + Load(hb, h), hi = Load(hg, row + H + h) + Load(hb, H + h),
                  hn = Load(hg, row + 2 * H + h) + Load(hb, 2 * H + h);
          const C rg = Sigmoid(ir + hr), zg = Sigmoid(ii + hi), ng = tanh(in + rg * hn);
          out.Set(0, e, ng + zg * (s - ng));
          keep.Set(0, e, rg);
          keep.Set(1, e, zg);
          keep.Set(2, e, ng);
          keep.Set(3, e, s);
          keep.Set(4, e, hn);
        }
      }
      out.Write(0, hyGm[static_cast<uint64_t>(r * H + h0)], n);
      if (a.kind == RnnCellKind::kLstm) out.Write(1, cyGm[static_cast<uint64_t>(r * H + h0)], n);
      for (int k = 0; k < stored; ++k) {
        keep.Write(k, storageGm[static_cast<uint64_t>((r * stored + k) * H + h0)], n);
      }
    }
  }
}

template <typename T>
__global__ __aicore__ void rnn_cell_backward_custom(CellBackwardTiling t) {
  using C = ComputeOf<T>;
  const RnnCellBackwardArgs& a = t.args;
  const int64_t H = a.hidden;
  const bool lstm = a.kind == RnnCellKind::kLstm;
  const int stored = lstm ? 4 : 5, gates = lstm ? 4 : 3;
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.rowsPerBlock;
  const int64_t last = std::min(a.rows, first + t.rowsPerBlock);
  const T* ghy = static_cast<const T*>(a.gradHy);
  const T* gcy = static_cast<const T*>(a.gradCy);
  const T* cx = static_cast<const T*>(a.cx);
  const T* cyp = static_cast<const T*>(a.cy);
  const T* st = static_cast<const T*>(a.storage);
  AscendC::GlobalTensor<T> gGm, ghGm, gsGm;
  gGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.gradGates), static_cast<uint64_t>(a.rows * gates * H));
  if (!lstm) ghGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.gradHiddenGates), static_cast<uint64_t>(a.rows * 3 * H));
  gsGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.gradState), static_cast<uint64_t>(a.rows * H));
  AscendC::TPipe pipe;
  SegmentTiles<T> g, gh;
  g.Init(pipe, t.chunk);
  gh.Init(pipe, t.chunk);
  for (int64_t r = first; r < last; ++r) {
    const int64_t srow = r * stored * H;
    for (int64_t h0 = 0; h0 < H; h0 += t.chunk) {
      const uint32_t n = static_cast<uint32_t>(std::min<int64_t>(t.chunk, H - h0));
      for (uint32_t e = 0; e < n; ++e) {
        const int64_t h = h0 + e;
        const C go = Load(ghy, r * H + h);
        if (lstm) {
          const C i = Load(st, srow + h), f = Load(st, srow + H + h), c = Load(st, srow + 2 * H + h),
                  o = Load(st, srow + 3 * H + h);
          const C tanhCy = tanh(Load(cyp, r * H + h));
          const C gc = go * o * (C(1) - tanhCy * tanhCy) + Load(gcy, r * H + h);
          g.Set(0, e, gc * c * i * (C(1) - i));
          g.Set(1, e, gc * Load(cx, r * H + h) * f * (C(1) - f));
          g.Set(2, e, gc * i * (C(1) - c * c));
          g.Set(3, e, go * tanhCy * o * (C(1) - o));
          g.Set(4, e, gc * f);
        } else {
          const C rg = Load(st, srow + h), zg = Load(st, srow + H + h), ng = Load(st, srow + 2 * H + h),
                  hx = Load(st, srow + 3 * H + h), hn = Load(st, srow + 4 * H + h);
          const C gz = go * (hx - ng) * (C(1) - zg) * zg;
          const C gn = go * (C(1) - zg) * (C(1) - ng * ng);
          const C gr = gn * hn * (C(1) - rg) * rg;
          g.Set(0, e, gr);
          g.Set(1, e, gz);
          g.Set(2, e, gn);
          g.Set(4, e, go * zg);
          gh.Set(0, e, gr);
          gh.Set(1, e, gz);
          gh.Set(2, e, gn * rg);
        }
      }
      for (int k = 0; k < gates; ++k) g.Write(k, gGm[static_cast<uint64_t>((r * gates + k) * H + h0)], n);
      g.Write(4, gsGm[static_cast<uint64_t>(r * H + h0)], n);
      if (!lstm) {
        for (int k = 0; k < 3; ++k) gh.Write(k, ghGm[static_cast<uint64_t>((r * 3 + k) * H + h0)], n);
      }
    }
  }
}

struct BiasTiling {
  int64_t rows = 0, cols = 0, colsPerBlock = 0;
  uint32_t chunk = 0;
};

// y[c] = sum over rows of x[r, c], rows added in order.
template <typename T>
__global__ __aicore__ void rnn_bias_grad_custom(GM_ADDR x, GM_ADDR y, BiasTiling t) {
  using C = ComputeOf<T>;
  const int64_t first = static_cast<int64_t>(AscendC::GetBlockIdx()) * t.colsPerBlock;
  const int64_t last = std::min(t.cols, first + t.colsPerBlock);
  AscendC::GlobalTensor<T> xGm, yGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), static_cast<uint64_t>(t.rows * t.cols));
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), static_cast<uint64_t>(t.cols));
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
  AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf;
  AscendC::TBuf<AscendC::TPosition::VECOUT> outBuf;
  pipe.InitBuffer(inQueue, BUFFER_NUM, t.chunk * sizeof(T));
  pipe.InitBuffer(accBuf, t.chunk * sizeof(C));
  pipe.InitBuffer(outBuf, t.chunk * sizeof(T));
  AscendC::LocalTensor<C> acc = accBuf.Get<C>();
  AscendC::LocalTensor<T> result = outBuf.Get<T>();
  for (int64_t c0 = first; c0 < last; c0 += t.chunk) {
    const uint32_t n = static_cast<uint32_t>(std::min<int64_t>(t.chunk, last - c0));
    for (uint32_t e = 0; e < n; ++e) acc.SetValue(e, C(0));
    for (int64_t r = 0; r < t.rows; ++r) {
      AscendC::LocalTensor<T> tile = inQueue.AllocTensor<T>();
      CopyTileIn(tile, xGm[static_cast<uint64_t>(r * t.cols + c0)], n);
      inQueue.EnQue(tile);
      AscendC::LocalTensor<T> in = inQueue.DeQue<T>();
      for (uint32_t e = 0; e < n; ++e) acc.SetValue(e, acc.GetValue(e) + static_cast<C>(in.GetValue(e)));
      inQueue.FreeTensor(in);
    }
    for (uint32_t e = 0; e < n; ++e) result.SetValue(e, static_cast<T>(acc.GetValue(e)));
    CopyTileOut(yGm[static_cast<uint64_t>(c0)], result, n);
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

int64_t BlocksFor(int64_t units, int64_t bytes) {
  const int64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  return std::max<int64_t>(1, std::min<int64_t>({cores, units, bytes / (64 * 1024)}));
}

uint32_t ChunkFor(int64_t elements) {
  return static_cast<uint32_t>(std::min<int64_t>(kChunk, (std::max<int64_t>(1, elements) + 31) / 32 * 32));
}

aclError LaunchBiasGrad(aclDataType dtype, const void* x, void* y, int64_t rows, int64_t cols, aclrtStream stream) {
  BiasTiling t;
  t.rows = rows;
  t.cols = cols;
  const int64_t blocks = BlocksFor(cols, rows * cols * 4);
  t.colsPerBlock = (cols + blocks - 1) / blocks;
  t.chunk = ChunkFor(t.colsPerBlock);
  const uint32_t blockDim = static_cast<uint32_t>((cols + t.colsPerBlock - 1) / t.colsPerBlock);
  return DispatchFloating(dtype, "rnn_bias_grad_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("rnn_bias_grad_custom", blockDim, stream, rnn_bias_grad_custom<T>, x, y, t);
  });
}

}  // namespace

aclError LaunchRnnCell(const RnnCellArgs& args, aclrtStream stream) {
  if (args.rows == 0 || args.hidden == 0) return ACL_SUCCESS;
  CellTiling t;
  t.args = args;
  const int64_t blocks = BlocksFor(args.rows, args.rows * args.hidden * 40);
  t.rowsPerBlock = (args.rows + blocks - 1) / blocks;
  t.chunk = ChunkFor(args.hidden);
  const uint32_t blockDim = static_cast<uint32_t>((args.rows + t.rowsPerBlock - 1) / t.rowsPerBlock);
  return DispatchFloating(args.dtype, "rnn_cell_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("rnn_cell_custom", blockDim, stream, rnn_cell_custom<T>, t);
  });
}

aclError LaunchRnnCellBackward(const RnnCellBackwardArgs& args, aclrtStream stream) {
  if (args.rows == 0 || args.hidden == 0) return ACL_SUCCESS;
  CellBackwardTiling t;
  t.args = args;
  const int64_t blocks = BlocksFor(args.rows, args.rows * args.hidden * 40);
  t.rowsPerBlock = (args.rows + blocks - 1) / blocks;
  t.chunk = ChunkFor(args.hidden);
  const uint32_t blockDim = static_cast<uint32_t>((args.rows + t.rowsPerBlock - 1) / t.rowsPerBlock);
  aclError rc = DispatchFloating(args.dtype, "rnn_cell_backward_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return LaunchKernel("rnn_cell_backward_custom", blockDim, stream, rnn_cell_backward_custom<T>, t);
  });
  if (rc != ACL_SUCCESS) return rc;
  const int64_t gateCols = (args.kind == RnnCellKind::kLstm ? 4 : 3) * args.hidden;
  if (args.gradBias != nullptr) {
    rc = LaunchBiasGrad(args.dtype, args.gradGates, args.gradBias, args.rows, gateCols, stream);
    if (rc != ACL_SUCCESS) return rc;
  }
  if (args.gradHiddenBias != nullptr) {
    rc = LaunchBiasGrad(args.dtype, args.gradHiddenGates, args.gradHiddenBias, args.rows, 3 * args.hidden, stream);
  }
  return rc;
}

}  // namespace kernels
}  // namespace ascendc_sim
