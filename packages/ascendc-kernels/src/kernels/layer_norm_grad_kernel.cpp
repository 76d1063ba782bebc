// layer_norm_grad_custom: the input gradient of layer norm along rows from the
// forward's per-row mean and rstd:
//   xhat = (x - mean) * rstd, gg = dy * gamma (dy without gamma),
//   dx = rstd * (gg - mean(gg) - xhat * mean(gg * xhat)),
// and dy * xhat (float32) for the weight gradient, which the host reduces over
// rows (column_sum_custom). A row is streamed in chunks of at most kRowChunk
// elements: a pass for the two row sums, then a pass for dx (the chunk stays in
// the unified buffer when the row fits one). Rows are split over the cores
// (ComputeRowTiling). float32, float16, bfloat16; computed in float32.
#include <math.h>

#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

struct LayerNormGradTiling {
  RowTiling rows;
  bool hasGamma = false;
  bool hasDx = false;
  bool hasDyXhat = false;
};

template <typename T, typename S>
class LayerNormGradKernel {
 public:
  __aicore__ inline void Init(GM_ADDR dy, GM_ADDR x, GM_ADDR mean, GM_ADDR rstd, GM_ADDR gamma, GM_ADDR dx,
                              GM_ADDR dyXhat, const LayerNormGradTiling& tiling) {
    t_ = tiling;
    const RowTiling& r = t_.rows;
    firstRow_ = static_cast<uint64_t>(GetBlockIdx()) * r.rowsPerBlock;
    rowCount_ = std::min<uint64_t>(r.rowsPerBlock, r.rows - std::min(r.rows, firstRow_));
    dyGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dy), r.rows * r.cols);
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), r.rows * r.cols);
    meanGm_.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(mean), r.rows);
    rstdGm_.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(rstd), r.rows);
    if (t_.hasGamma) gammaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gamma), r.cols);
    if (t_.hasDx) dxGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dx), r.rows * r.cols);
    if (t_.hasDyXhat) dyXhatGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dyXhat), r.rows * r.cols);
    width_ = std::min<uint32_t>(r.cols, kRowChunk);
    const uint32_t pt = TileRowPitch<T>(width_), pf = TileRowPitch<float>(width_);
    pipe_.InitBuffer(inQueue_, 2, pt * sizeof(T));
    pipe_.InitBuffer(outQueue_, 2, pf * sizeof(float));
    pipe_.InitBuffer(dyBuf_, pf * sizeof(float));
    pipe_.InitBuffer(xBuf_, pf * sizeof(float));
    pipe_.InitBuffer(gammaBuf_, pf * sizeof(float));
    pipe_.InitBuffer(tmpBuf_, pf * sizeof(float));
    pipe_.InitBuffer(scalarBuf_, 64);
  }

  __aicore__ inline void Process() {
    const bool resident = t_.rows.cols <= kRowChunk;
    if (resident && t_.hasGamma) LoadGamma(0, t_.rows.cols);
    for (uint64_t r = 0; r < rowCount_; ++r) Row(firstRow_ + r, resident);
  }

 private:
  __aicore__ inline void Load(const LocalTensor<float>& dst, const GlobalTensor<T>& src, uint32_t len) {
    LocalTensor<T> stage = inQueue_.AllocTensor<T>();
    LoadRowsAsFloat(dst, stage, src, 1, len, len);
    inQueue_.FreeTensor(stage);
  }

  __aicore__ inline void LoadGamma(uint32_t c0, uint32_t len) { Load(gammaBuf_.Get<float>(), gammaGm_[c0], len); }

  // Loads a chunk and leaves xhat in xBuf_ and gg in dyBuf_ (dy in tmpBuf_).
  __aicore__ inline void LoadChunk(uint64_t row, uint32_t c0, uint32_t len, bool resident, float mean, float rstd) {
    LocalTensor<float> dyf = dyBuf_.Get<float>(), xf = xBuf_.Get<float>(), dyRaw = tmpBuf_.Get<float>();
    Load(dyRaw, dyGm_[row * t_.rows.cols + c0], len);
    Load(xf, xGm_[row * t_.rows.cols + c0], len);
    if (t_.hasGamma && !resident) LoadGamma(c0, len);
    Adds(xf, xf, -mean, len);
    Muls(xf, xf, rstd, len);
    if (t_.hasGamma) {
      Mul(dyf, dyRaw, gammaBuf_.Get<float>(), len);
    } else {
      Adds(dyf, dyRaw, 0.0f, len);
    }
  }

  __aicore__ inline float Sum(const LocalTensor<float>& v, uint32_t len) {
    LocalTensor<float> s = scalarBuf_.Get<float>();
    ReduceSum(s, v, s, static_cast<int32_t>(len));
    return s.GetValue(0);
  }

  __aicore__ inline void Row(uint64_t row, bool resident) {
    const uint32_t cols = t_.rows.cols;
    const float mean = static_cast<float>(meanGm_.GetValue(row));
    const float rstd = static_cast<float>(rstdGm_.GetValue(row));
    LocalTensor<float> gg = dyBuf_.Get<float>(), xhat = xBuf_.Get<float>(), tmp = tmpBuf_.Get<float>();
    float sumG = 0.0f, sumGX = 0.0f;
    for (uint32_t c0 = 0; c0 < cols; c0 += kRowChunk) {
      const uint32_t len = std::min(kRowChunk, cols - c0);
      LoadChunk(row, c0, len, resident, mean, rstd);
      if (t_.hasDyXhat) {
        Mul(tmp, tmp, xhat, len);  // tmp held dy
        LocalTensor<float> out = outQueue_.AllocTensor<float>();
        Adds(out, tmp, 0.0f, len);
        outQueue_.EnQue(out);
        out = outQueue_.DeQue<float>();
        DataCopyPad(dyXhatGm_[row * cols + c0], out,
                    DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0});
        outQueue_.FreeTensor(out);
      }
      sumG += Sum(gg, len);
      Mul(tmp, gg, xhat, len);
      sumGX += Sum(tmp, len);
    }
    if (!t_.hasDx) return;
    const float n = static_cast<float>(cols);
    const float meanG = sumG / n, meanGX = sumGX / n;
    for (uint32_t c0 = 0; c0 < cols; c0 += kRowChunk) {
      const uint32_t len = std::min(kRowChunk, cols - c0);
      if (!resident) LoadChunk(row, c0, len, resident, mean, rstd);
      Muls(tmp, xhat, meanGX, len);
      Sub(tmp, gg, tmp, len);
      Adds(tmp, tmp, -meanG, len);
      Muls(tmp, tmp, rstd, len);
      LocalTensor<T> out = outQueue_.AllocTensor<T>();
      StoreRowsFromFloat(dxGm_[row * cols + c0], tmp, out, 1, len, len);
      outQueue_.FreeTensor(out);
    }
  }

  LayerNormGradTiling t_;
  uint64_t firstRow_ = 0, rowCount_ = 0;
  uint32_t width_ = 0;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> inQueue_;
  TQue<TPosition::VECOUT, 2> outQueue_;
  TBuf<TPosition::VECCALC> dyBuf_, xBuf_, gammaBuf_, tmpBuf_, scalarBuf_;
  GlobalTensor<T> dyGm_, xGm_, gammaGm_, dxGm_;
  GlobalTensor<S> meanGm_, rstdGm_;
  GlobalTensor<float> dyXhatGm_;
};

template <typename T, typename S>
__global__ __aicore__ void layer_norm_grad_custom(GM_ADDR dy, GM_ADDR x, GM_ADDR mean, GM_ADDR rstd, GM_ADDR gamma,
                                                  GM_ADDR dx, GM_ADDR dyXhat, LayerNormGradTiling tiling) {
  LayerNormGradKernel<T, S> op;
  op.Init(dy, x, mean, rstd, gamma, dx, dyXhat, tiling);
  op.Process();
}

template <typename F>
aclError DispatchFloat(aclDataType dtype, const char* what, F&& f) {
  switch (dtype) {
    case ACL_FLOAT: return f(TypeTag<float>{});
    case ACL_FLOAT16: return f(TypeTag<half>{});
    case ACL_BF16: return f(TypeTag<bfloat16_t>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'layer_norm_grad_custom' does not support %s %s",
                        what, DataTypeName(dtype));
  }
}

}  // namespace

aclError LaunchLayerNormGrad(const LayerNormGradArgs& a, aclrtStream stream) {
  return DispatchFloat(a.dtype, "data type", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    return DispatchFloat(a.statsDtype, "stats type", [&](auto statsTag) -> aclError {
      using S = typename decltype(statsTag)::type;
      LayerNormGradTiling t;
      t.rows = ComputeRowTiling(a.rows, a.cols, sizeof(T));
      if (t.rows.blockDim == 0) return ACL_SUCCESS;
      t.hasGamma = a.gamma != nullptr;
      t.hasDx = a.dx != nullptr;
      t.hasDyXhat = a.dyXhat != nullptr;
      return LaunchKernel("layer_norm_grad_custom", t.rows.blockDim, stream, layer_norm_grad_custom<T, S>, a.dy, a.x,
                          a.mean, a.rstd, a.gamma, a.dx, a.dyXhat, t);
    });
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
