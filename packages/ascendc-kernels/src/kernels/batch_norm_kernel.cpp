// batch_norm_custom: batch normalization of x viewed as (n, c, l) per channel:
// training: mean and biased variance over (n, l), saved mean and invstd
// (1 / sqrt(var + eps)), running stats updated as torch does (momentum, unbiased
// variance); eval: the running stats. y = (x - mean) * invstd * weight + bias.
// Channels are split over the cores; a channel is streamed in tiles
// (batch_norm_tiles.h) through a double-buffered queue: two passes for the
// statistics, one for y. x/y float32, float16 or bfloat16; per-channel tensors
// float32; computed in float32.
#include <math.h>

#include "kernels/batch_norm_tiles.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

struct BatchNormTiling {
  uint64_t n = 0, c = 0, l = 0;
  uint64_t channelsPerBlock = 0;
  uint32_t tileRows = 1;
  bool training = false;
  float momentum = 0.1f, eps = 1e-5f;
  bool hasWeight = false, hasBias = false, hasRunning = false, hasSave = false;
};

template <typename T>
class BatchNormKernel {
 public:
  __aicore__ inline void Init(const BatchNormArgs& a, const BatchNormTiling& tiling) {
    t_ = tiling;
    firstChannel_ = static_cast<uint64_t>(GetBlockIdx()) * t_.channelsPerBlock;
    channelCount_ = std::min<uint64_t>(t_.channelsPerBlock, t_.c - std::min(t_.c, firstChannel_));
    const uint64_t numel = t_.n * t_.c * t_.l;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(const_cast<void*>(a.x)), numel);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.y), numel);
    auto setF = [&](GlobalTensor<float>& g, const void* p) {
      if (p != nullptr) g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(const_cast<void*>(p)), t_.c);
    };
    setF(weightGm_, a.weight);
    setF(biasGm_, a.bias);
    setF(rmInGm_, a.runningMean);
    setF(rvInGm_, a.runningVar);
    setF(rmOutGm_, a.runningMeanOut);
    setF(rvOutGm_, a.runningVarOut);
    setF(saveMeanGm_, a.saveMean);
    setF(saveInvstdGm_, a.saveInvstd);
    const uint32_t width = static_cast<uint32_t>(std::min<uint64_t>(t_.l, kRowChunk));
    pipe_.InitBuffer(inQueue_, 2, t_.tileRows * TileRowPitch<T>(width) * sizeof(T));
    pipe_.InitBuffer(outQueue_, 2, t_.tileRows * TileRowPitch<T>(width) * sizeof(T));
    pipe_.InitBuffer(workBuf_, t_.tileRows * TileRowPitch<float>(width) * sizeof(float));
    pipe_.InitBuffer(scalarBuf_, 64);
  }

  __aicore__ inline void Process() {
    for (uint64_t k = 0; k < channelCount_; ++k) Channel(firstChannel_ + k);
  }

 private:
  // The tile as float32 in workBuf_ (rows at pitch TileRowPitch<float>(len)).
  __aicore__ inline LocalTensor<float> Load(const ChannelTile& tile) {
    LocalTensor<T> stage = inQueue_.AllocTensor<T>();
    LocalTensor<float> w = workBuf_.Get<float>();
    LoadRowsAsFloat(w, stage, xGm_[tile.offset], tile.rows, tile.len, tile.pitch);
    inQueue_.FreeTensor(stage);
    return w;
  }

  __aicore__ inline float TileSum(const LocalTensor<float>& w, const ChannelTile& tile, float shift, bool square) {
    LocalTensor<float> s = scalarBuf_.Get<float>();
    const uint32_t pf = TileRowPitch<float>(tile.len);
    float sum = 0.0f;
    for (uint32_t r = 0; r < tile.rows; ++r) {
      LocalTensor<float> row = w[r * pf];
      if (square) {
        Adds(row, row, -shift, tile.len);
        Mul(row, row, row, tile.len);
      }
      ReduceSum(s, row, s, static_cast<int32_t>(tile.len));
      sum += s.GetValue(0);
    }
    return sum;
  }

  __aicore__ inline void Channel(uint64_t ch) {
    const float count = static_cast<float>(t_.n * t_.l);
    float mean = 0.0f, invstd = 0.0f;
    if (t_.training) {
      float sum = 0.0f, sq = 0.0f;
      ForEachChannelTile(t_.n, t_.c, t_.l, ch, t_.tileRows, [&](const ChannelTile& tile) {
        sum += TileSum(Load(tile), tile, 0.0f, false);
      });
      mean = sum / count;
      ForEachChannelTile(t_.n, t_.c, t_.l, ch, t_.tileRows, [&](const ChannelTile& tile) {
        sq += TileSum(Load(tile), tile, mean, true);
      });
      const float var = sq / count;
      invstd = 1.0f / sqrtf(var + t_.eps);
      if (t_.hasRunning) {
        const float unbiased = var * count / (count - 1.0f);
        rmOutGm_.SetValue(ch, (1.0f - t_.momentum) * rmInGm_.GetValue(ch) + t_.momentum * mean);
        rvOutGm_.SetValue(ch, (1.0f - t_.momentum) * rvInGm_.GetValue(ch) + t_.momentum * unbiased);
      }
    } else {
      mean = rmInGm_.GetValue(ch);
      invstd = 1.0f / sqrtf(rvInGm_.GetValue(ch) + t_.eps);
    }
    if (t_.hasSave) {  // the statistics the channel was normalized with (eval: the running ones)
      saveMeanGm_.SetValue(ch, mean);
      saveInvstdGm_.SetValue(ch, invstd);
    }
    const float scale = invstd * (t_.hasWeight ? weightGm_.GetValue(ch) : 1.0f);
    const float shift = (t_.hasBias ? biasGm_.GetValue(ch) : 0.0f) - mean * scale;
    ForEachChannelTile(t_.n, t_.c, t_.l, ch, t_.tileRows, [&](const ChannelTile& tile) {
      LocalTensor<float> w = Load(tile);
      const uint32_t pf = TileRowPitch<float>(tile.len);
      for (uint32_t r = 0; r < tile.rows; ++r) {
        Muls(w[r * pf], w[r * pf], scale, tile.len);
        Adds(w[r * pf], w[r * pf], shift, tile.len);
      }
      LocalTensor<T> out = outQueue_.AllocTensor<T>();
      StoreRowsFromFloat(yGm_[tile.offset], w, out, tile.rows, tile.len, tile.pitch);
      outQueue_.FreeTensor(out);
    });
  }

  BatchNormTiling t_;
  uint64_t firstChannel_ = 0, channelCount_ = 0;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> inQueue_;
  TQue<TPosition::VECOUT, 2> outQueue_;
  TBuf<TPosition::VECCALC> workBuf_, scalarBuf_;
  GlobalTensor<T> xGm_, yGm_;
  GlobalTensor<float> weightGm_, biasGm_, rmInGm_, rvInGm_, rmOutGm_, rvOutGm_, saveMeanGm_, saveInvstdGm_;
};

template <typename T>
__global__ __aicore__ void batch_norm_custom(BatchNormArgs args, BatchNormTiling tiling) {
  BatchNormKernel<T> op;
  op.Init(args, tiling);
  op.Process();
}

}  // namespace

aclError LaunchBatchNorm(const BatchNormArgs& a, aclrtStream stream) {
  auto launch = [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if (a.c == 0 || a.n * a.l == 0) return ACL_SUCCESS;
    BatchNormTiling t;
    t.n = a.n;
    t.c = a.c;
    t.l = a.l;
    t.training = a.training;
    t.momentum = static_cast<float>(a.momentum);
    t.eps = static_cast<float>(a.eps);
    t.hasWeight = a.weight != nullptr;
    t.hasBias = a.bias != nullptr;
    t.hasRunning = a.training && a.runningMean != nullptr;
    t.hasSave = a.saveMean != nullptr;
    t.tileRows = ChannelTileRows(a.l);
    const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
    const uint32_t blocks = static_cast<uint32_t>(std::min<uint64_t>(cores, a.c));
    t.channelsPerBlock = (a.c + blocks - 1) / blocks;
    const uint32_t blockDim = static_cast<uint32_t>((a.c + t.channelsPerBlock - 1) / t.channelsPerBlock);
    return LaunchKernel("batch_norm_custom", blockDim, stream, batch_norm_custom<T>, a, t);
  };
  switch (a.dtype) {
    case ACL_FLOAT: return launch(TypeTag<float>{});
    case ACL_FLOAT16: return launch(TypeTag<half>{});
    case ACL_BF16: return launch(TypeTag<bfloat16_t>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'batch_norm_custom' does not support data type %s",
                        DataTypeName(a.dtype));
  }
}

}  // namespace kernels
}  // namespace ascendc_sim
