// layer_norm_custom: y = (x - mean) * rstd * gamma + beta along rows, with
// rstd = 1 / sqrt(var + eps) (biased variance); mean and rstd per row.
// float32, float16, bfloat16 (computed in float32). See row_pipeline.h.
#include <math.h>

#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

struct LayerNormTiling {
  RowTiling rows;
  float eps = 1e-5f;
  bool hasGamma = false;
  bool hasBeta = false;
  bool hasMean = false;
  bool hasRstd = false;
};

template <typename T, typename S>
class LayerNormKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR rstd,
                              const LayerNormTiling& tiling) {
    t_ = tiling;
    const RowTiling& r = t_.rows;
    firstRow_ = static_cast<uint64_t>(GetBlockIdx()) * r.rowsPerBlock;
    rowCount_ = std::min<uint64_t>(r.rowsPerBlock, r.rows - std::min(r.rows, firstRow_));
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), r.rows * r.cols);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), r.rows * r.cols);
    if (t_.hasGamma) gammaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gamma), r.cols);
    if (t_.hasBeta) betaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(beta), r.cols);
    if (t_.hasMean) meanGm_.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(mean), r.rows);
    if (t_.hasRstd) rstdGm_.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(rstd), r.rows);
    const uint32_t rowsPerTile = r.rowsPerTile != 0 ? r.rowsPerTile : 1;
    width_ = r.rowsPerTile != 0 ? r.cols : kRowChunk;
    const uint32_t pt = TileRowPitch<T>(width_), pf = TileRowPitch<float>(width_);
    pipe_.InitBuffer(inQueue_, 2, rowsPerTile * pt * sizeof(T));
    pipe_.InitBuffer(outQueue_, 2, rowsPerTile * pt * sizeof(T));
    pipe_.InitBuffer(workBuf_, pf * sizeof(float));
    pipe_.InitBuffer(affineBuf_, 2 * pf * sizeof(float));
    pipe_.InitBuffer(stageBuf_, pt * sizeof(T));
  }

  __aicore__ inline void Process() {
    if (rowCount_ == 0) return;
    if (t_.rows.rowsPerTile == 0) {
      for (uint64_t r = 0; r < rowCount_; ++r) LongRow(firstRow_ + r);
      return;
    }
    LoadAffine(0, t_.rows.cols);  // gamma/beta stay in the unified buffer
    const uint64_t tiles = (rowCount_ + t_.rows.rowsPerTile - 1) / t_.rows.rowsPerTile;
    CopyIn(0);
    for (uint64_t i = 0; i < tiles; ++i) {
      if (i + 1 < tiles) CopyIn(i + 1);
      Compute(i);
    }
  }

 private:
  __aicore__ inline uint32_t TileRows(uint64_t tile) const {
    return static_cast<uint32_t>(std::min<uint64_t>(t_.rows.rowsPerTile, rowCount_ - tile * t_.rows.rowsPerTile));
  }

  __aicore__ inline void LoadAffine(uint32_t c0, uint32_t len) {
    LocalTensor<float> affine = affineBuf_.Get<float>();
    LocalTensor<T> stage = stageBuf_.Get<T>();
    const uint32_t pf = TileRowPitch<float>(width_);
    if (t_.hasGamma) LoadRowsAsFloat(affine, stage, gammaGm_[c0], 1, len, len);
    if (t_.hasBeta) LoadRowsAsFloat(affine[pf], stage, betaGm_[c0], 1, len, len);
  }

  __aicore__ inline void CopyIn(uint64_t tile) {
    LocalTensor<T> x = inQueue_.AllocTensor<T>();
    DataCopyExtParams copy{static_cast<uint16_t>(TileRows(tile)), static_cast<uint32_t>(t_.rows.cols * sizeof(T)), 0,
                           0, 0};
    DataCopyPad(x, xGm_[(firstRow_ + tile * t_.rows.rowsPerTile) * t_.rows.cols], copy, DataCopyPadExtParams<T>{});
    inQueue_.EnQue(x);
  }

  __aicore__ inline void StoreStats(uint64_t row, float mean, float rstd) {
    if (t_.hasMean) meanGm_.SetValue(row, Stat(mean));
    if (t_.hasRstd) rstdGm_.SetValue(row, Stat(rstd));
  }

  static __aicore__ inline S Stat(float v) {
    return static_cast<S>(v);
  }

  // dst = (src - mean) * rstd [* gamma] [+ beta] over `cols` floats, gamma/beta as LoadAffine left
  // them in the unified buffer, in one vector-unit pass.
  __aicore__ inline void Normalize(const LocalTensor<float>& dst, const LocalTensor<float>& src, float mean,
                                   float rstd, uint32_t cols) {
    LocalTensor<float> affine = affineBuf_.Get<float>();
    const float* gamma = t_.hasGamma ? affine.GetPhyAddr() : nullptr;
    const float* beta = t_.hasBeta ? affine[TileRowPitch<float>(width_)].GetPhyAddr() : nullptr;
    aclsimVectorNormalizeF32(dst.GetPhyAddr(), src.GetPhyAddr(), mean, rstd, gamma, beta, cols);
  }

  // dst = (src - mean) * rstd [* gamma] [+ beta] over `cols` floats; returns mean and rstd.
  __aicore__ inline void Row(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t cols, float* mean,
                             float* rstd) {
    // the row's moments in double on the vector unit: two passes instead of four
    const double muD = aclsimVectorSumF32AsF64(src.GetPhyAddr(), cols) / cols;
    const float var = static_cast<float>(aclsimVectorSquaredDeviationF32(src.GetPhyAddr(), cols, muD) / cols);
    const float mu = static_cast<float>(muD);
    // A variance past float's range gives NaN, as CPU's row moments do (not 0, which would
    // turn the row's values into silent zeros).
    const float r = isinf(var) ? NAN : 1.0f / sqrtf(var + t_.eps);
    Normalize(dst, src, mu, r, cols);
    *mean = mu;
    *rstd = r;
  }

  __aicore__ inline void Compute(uint64_t tile) {
    const uint32_t rows = TileRows(tile);
    const uint32_t cols = t_.rows.cols;
    const uint64_t row0 = firstRow_ + tile * t_.rows.rowsPerTile;
    LocalTensor<T> x = inQueue_.DeQue<T>();
    LocalTensor<T> y = outQueue_.AllocTensor<T>();
    const uint32_t pt = TileRowPitch<T>(cols);
    float mean = 0.0f, rstd = 0.0f;
    for (uint32_t r = 0; r < rows; ++r) {
      if constexpr (std::is_same<T, float>::value) {
        Row(y[r * pt], x[r * pt], cols, &mean, &rstd);
      } else {
        LocalTensor<float> w = workBuf_.Get<float>();
        Cast(w, x[r * pt], RoundMode::CAST_NONE, cols);
        Row(w, w, cols, &mean, &rstd);
        Cast(y[r * pt], w, RoundMode::CAST_RINT, cols);
      }
      StoreStats(row0 + r, mean, rstd);
    }
    inQueue_.FreeTensor(x);
    outQueue_.EnQue(y);
    y = outQueue_.DeQue<T>();
    DataCopyExtParams copy{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
    DataCopyPad(yGm_[row0 * cols], y, copy);
    outQueue_.FreeTensor(y);
  }

  // Rows longer than a tile: a sum pass, a squared-deviation pass, then the output pass.
  __aicore__ inline void LongRow(uint64_t row) {
    const uint32_t cols = t_.rows.cols;
    const GlobalTensor<T> x = xGm_[row * cols];
    const GlobalTensor<T> y = yGm_[row * cols];
    LocalTensor<float> w = workBuf_.Get<float>();
    LocalTensor<T> stage = stageBuf_.Get<T>();
    double sum = 0.0, sumSq = 0.0;
    for (uint32_t c0 = 0; c0 < cols; c0 += kRowChunk) {
      const uint32_t len = std::min(kRowChunk, cols - c0);
      LoadRowsAsFloat(w, stage, x[c0], 1, len, len);
      sum += aclsimVectorSumF32AsF64(w.GetPhyAddr(), len);
    }
    const double muD = sum / cols;
    const float mu = static_cast<float>(muD);
    for (uint32_t c0 = 0; c0 < cols; c0 += kRowChunk) {
      const uint32_t len = std::min(kRowChunk, cols - c0);
      LoadRowsAsFloat(w, stage, x[c0], 1, len, len);
      sumSq += aclsimVectorSquaredDeviationF32(w.GetPhyAddr(), len, muD);
    }
    const float r = 1.0f / sqrtf(static_cast<float>(sumSq / cols) + t_.eps);
    for (uint32_t c0 = 0; c0 < cols; c0 += kRowChunk) {
      const uint32_t len = std::min(kRowChunk, cols - c0);
      LoadAffine(c0, len);
      LoadRowsAsFloat(w, stage, x[c0], 1, len, len);
      Normalize(w, w, mu, r, len);
      StoreRowsFromFloat(y[c0], w, stage, 1, len, len);
    }
    StoreStats(row, mu, r);
  }

  LayerNormTiling t_;
  uint64_t firstRow_ = 0, rowCount_ = 0;
  uint32_t width_ = 0;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> inQueue_;
  TQue<TPosition::VECOUT, 2> outQueue_;
  TBuf<TPosition::VECCALC> workBuf_, affineBuf_, stageBuf_;
  GlobalTensor<T> xGm_, yGm_, gammaGm_, betaGm_;
  GlobalTensor<S> meanGm_, rstdGm_;
};

template <typename T, typename S>
__global__ __aicore__ void layer_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean,
                                             GM_ADDR rstd, LayerNormTiling tiling) {
  LayerNormKernel<T, S> op;
  op.Init(x, gamma, beta, y, mean, rstd, tiling);
  op.Process();
}

template <typename T>
aclError LaunchWithStats(const LayerNormArgs& a, const LayerNormTiling& t, aclrtStream stream) {
  auto go = [&](auto statsTag) -> aclError {
    using S = typename decltype(statsTag)::type;
    return LaunchKernel("layer_norm_custom", t.rows.blockDim, stream, layer_norm_custom<T, S>, a.x, a.gamma, a.beta,
                        a.y, a.mean, a.rstd, t);
  };
  switch (a.statsDtype) {
    case ACL_FLOAT: return go(TypeTag<float>{});
    case ACL_FLOAT16: return go(TypeTag<half>{});
    case ACL_BF16: return go(TypeTag<bfloat16_t>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'layer_norm_custom' does not support stats type %s",
                        DataTypeName(a.statsDtype));
  }
}

}  // namespace

aclError LaunchLayerNorm(const LayerNormArgs& args, aclrtStream stream) {
  auto launch = [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    LayerNormTiling t;
    t.rows = ComputeRowTiling(args.rows, args.cols, sizeof(T));
    if (t.rows.blockDim == 0) return ACL_SUCCESS;
    t.eps = static_cast<float>(args.eps);
    t.hasGamma = args.gamma != nullptr;
    t.hasBeta = args.beta != nullptr;
    t.hasMean = args.mean != nullptr;
    t.hasRstd = args.rstd != nullptr;
    return LaunchWithStats<T>(args, t, stream);
  };
  switch (args.dtype) {
    case ACL_FLOAT: return launch(TypeTag<float>{});
    case ACL_FLOAT16: return launch(TypeTag<half>{});
    case ACL_BF16: return launch(TypeTag<bfloat16_t>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'layer_norm_custom' does not support data type %s",
                        DataTypeName(args.dtype));
  }
}

}  // namespace kernels
}  // namespace ascendc_sim
