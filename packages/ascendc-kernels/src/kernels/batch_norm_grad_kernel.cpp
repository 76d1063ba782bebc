// batch_norm_grad_custom: the gradients of batch_norm_custom per channel of
// (n, c, l): with mean/invstd the saved statistics (training) or the running
// stats (eval, invstd = 1 / sqrt(var + eps)), sum_dy = sum(dy) and
// sum_dy_xmu = sum(dy * (x - mean)) over (n, l):
//   training: dx = (dy - sum_dy / m - (x - mean) * invstd^2 * sum_dy_xmu / m) * invstd * w
//   eval:     dx = dy * invstd * w
//   dweight = sum_dy_xmu * invstd, dbias = sum_dy (m = n * l).
// Channels are split over the cores; dy and x tiles (batch_norm_tiles.h) come
// through double-buffered queues: a pass for the sums, a pass for dx.
// dy/x/dx float32, float16 or bfloat16; per-channel tensors float32.
#include <math.h>

#include "kernels/batch_norm_tiles.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

struct BatchNormGradTiling {
  uint64_t n = 0, c = 0, l = 0;
  uint64_t channelsPerBlock = 0;
  uint32_t tileRows = 1;
  bool training = false;
  float eps = 1e-5f;
  bool hasWeight = false, hasDx = false, hasDw = false, hasDb = false;
};

template <typename T>
class BatchNormGradKernel {
 public:
  __aicore__ inline void Init(const BatchNormGradArgs& a, const BatchNormGradTiling& tiling) {
    t_ = tiling;
    firstChannel_ = static_cast<uint64_t>(GetBlockIdx()) * t_.channelsPerBlock;
    channelCount_ = std::min<uint64_t>(t_.channelsPerBlock, t_.c - std::min(t_.c, firstChannel_));
    const uint64_t numel = t_.n * t_.c * t_.l;
    dyGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(const_cast<void*>(a.dy)), numel);
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(const_cast<void*>(a.x)), numel);
    if (t_.hasDx) dxGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.dx), numel);
    auto setF = [&](GlobalTensor<float>& g, const void* p) {
      if (p != nullptr) g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(const_cast<void*>(p)), t_.c);
    };
    setF(weightGm_, a.weight);
    setF(meanGm_, a.mean);
    setF(invstdGm_, a.invstdOrVar);
    setF(dwGm_, a.dweight);
    setF(dbGm_, a.dbias);
    const uint32_t width = static_cast<uint32_t>(std::min<uint64_t>(t_.l, kRowChunk));
    const uint32_t tileT = t_.tileRows * TileRowPitch<T>(width) * sizeof(T);
    const uint32_t tileF = t_.tileRows * TileRowPitch<float>(width) * sizeof(float);
    pipe_.InitBuffer(dyQueue_, 2, tileT);
    pipe_.InitBuffer(xQueue_, 2, tileT);
    pipe_.InitBuffer(outQueue_, 2, tileT);
    pipe_.InitBuffer(dyBuf_, tileF);
    pipe_.InitBuffer(xBuf_, tileF);
    pipe_.InitBuffer(scalarBuf_, 64);
  }

  __aicore__ inline void Process() {
    for (uint64_t k = 0; k < channelCount_; ++k) Channel(firstChannel_ + k);
  }

 private:
  __aicore__ inline void Load(const ChannelTile& tile) {
    LocalTensor<T> sdy = dyQueue_.AllocTensor<T>();
    LoadRowsAsFloat(dyBuf_.Get<float>(), sdy, dyGm_[tile.offset], tile.rows, tile.len, tile.pitch);
    dyQueue_.FreeTensor(sdy);
    LocalTensor<T> sx = xQueue_.AllocTensor<T>();
    LoadRowsAsFloat(xBuf_.Get<float>(), sx, xGm_[tile.offset], tile.rows, tile.len, tile.pitch);
    xQueue_.FreeTensor(sx);
  }

  __aicore__ inline void Channel(uint64_t ch) {
    const float m = static_cast<float>(t_.n * t_.l);
    const float mean = meanGm_.GetValue(ch);
    const float stat = invstdGm_.GetValue(ch);
    const float invstd = t_.training ? stat : 1.0f / sqrtf(stat + t_.eps);
    const float w = t_.hasWeight ? weightGm_.GetValue(ch) : 1.0f;
    LocalTensor<float> s = scalarBuf_.Get<float>();
    float sumDy = 0.0f, sumDyXmu = 0.0f;
    ForEachChannelTile(t_.n, t_.c, t_.l, ch, t_.tileRows, [&](const ChannelTile& tile) {
      Load(tile);
      LocalTensor<float> dy = dyBuf_.Get<float>(), x = xBuf_.Get<float>();
      const uint32_t pf = TileRowPitch<float>(tile.len);
      for (uint32_t r = 0; r < tile.rows; ++r) {
        ReduceSum(s, dy[r * pf], s, static_cast<int32_t>(tile.len));
        sumDy += s.GetValue(0);
        Adds(x[r * pf], x[r * pf], -mean, tile.len);
        Mul(x[r * pf], x[r * pf], dy[r * pf], tile.len);
        ReduceSum(s, x[r * pf], s, static_cast<int32_t>(tile.len));
        sumDyXmu += s.GetValue(0);
      }
    });
    if (t_.hasDw) dwGm_.SetValue(ch, sumDyXmu * invstd);
    if (t_.hasDb) dbGm_.SetValue(ch, sumDy);
    if (!t_.hasDx) return;
    const float gain = invstd * w;
    const float k = invstd * invstd * sumDyXmu / m;  // training: the (x - mean) coefficient
    const float meanDy = sumDy / m;
    ForEachChannelTile(t_.n, t_.c, t_.l, ch, t_.tileRows, [&](const ChannelTile& tile) {
      Load(tile);
      LocalTensor<float> dy = dyBuf_.Get<float>(), x = xBuf_.Get<float>();
      const uint32_t pf = TileRowPitch<float>(tile.len);
      for (uint32_t r = 0; r < tile.rows; ++r) {
        if (t_.training) {
          Adds(x[r * pf], x[r * pf], -mean, tile.len);
          Muls(x[r * pf], x[r * pf], k, tile.len);
          Sub(dy[r * pf], dy[r * pf], x[r * pf], tile.len);
          Adds(dy[r * pf], dy[r * pf], -meanDy, tile.len);
        }
        Muls(dy[r * pf], dy[r * pf], gain, tile.len);
      }
      LocalTensor<T> out = outQueue_.AllocTensor<T>();
      StoreRowsFromFloat(dxGm_[tile.offset], dy, out, tile.rows, tile.len, tile.pitch);
      outQueue_.FreeTensor(out);
    });
  }

  BatchNormGradTiling t_;
  uint64_t firstChannel_ = 0, channelCount_ = 0;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> dyQueue_, xQueue_;
  TQue<TPosition::VECOUT, 2> outQueue_;
  TBuf<TPosition::VECCALC> dyBuf_, xBuf_, scalarBuf_;
  GlobalTensor<T> dyGm_, xGm_, dxGm_;
  GlobalTensor<float> weightGm_, meanGm_, invstdGm_, dwGm_, dbGm_;
};

template <typename T>
__global__ __aicore__ void batch_norm_grad_custom(BatchNormGradArgs args, BatchNormGradTiling tiling) {
  BatchNormGradKernel<T> op;
  op.Init(args, tiling);
  op.Process();
}

}  // namespace

aclError LaunchBatchNormGrad(const BatchNormGradArgs& a, aclrtStream stream) {
  auto launch = [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if (a.c == 0) return ACL_SUCCESS;
    BatchNormGradTiling t;
    t.n = a.n;
    t.c = a.c;
    t.l = a.l;
    t.training = a.training;
    t.eps = static_cast<float>(a.eps);
    t.hasWeight = a.weight != nullptr;
    t.hasDx = a.dx != nullptr && a.n * a.l > 0;
    t.hasDw = a.dweight != nullptr;
    t.hasDb = a.dbias != nullptr;
    t.tileRows = ChannelTileRows(std::max<uint64_t>(1, a.l));
    const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
    const uint32_t blocks = static_cast<uint32_t>(std::min<uint64_t>(cores, a.c));
    t.channelsPerBlock = (a.c + blocks - 1) / blocks;
    const uint32_t blockDim = static_cast<uint32_t>((a.c + t.channelsPerBlock - 1) / t.channelsPerBlock);
    return LaunchKernel("batch_norm_grad_custom", blockDim, stream, batch_norm_grad_custom<T>, a, t);
  };
  switch (a.dtype) {
    case ACL_FLOAT: return launch(TypeTag<float>{});
    case ACL_FLOAT16: return launch(TypeTag<half>{});
    case ACL_BF16: return launch(TypeTag<bfloat16_t>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'batch_norm_grad_custom' does not support data type %s",
                        DataTypeName(a.dtype));
  }
}

}  // namespace kernels
}  // namespace ascendc_sim
