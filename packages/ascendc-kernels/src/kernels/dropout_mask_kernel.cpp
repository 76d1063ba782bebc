// dropout_gen_mask_custom: a bit mask (uint8, bit k of byte j is element 8j + k)
// whose bits are 1 ("keep") with probability 1 - prob, drawn from Philox block i
// of (seed, offset) for element i (kernels/philox.h); bits past the element count
// are 0. dropout_do_mask_custom: y = x / (1 - prob) where the bit is 1, else 0.
#include <type_traits>

#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_helpers.h"
#include "kernels/tiling.h"
#include "kernels/kernel_api.h"
#include "kernels/philox.h"

namespace ascendc_sim {
namespace kernels {
namespace {

class KernelGenMask {
 public:
  __aicore__ inline void Init(GM_ADDR mask, const ElementwiseTiling& tiling, uint64_t elements, double keep,
                              PhiloxArgs rng) {
    const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
    firstByte_ = tiling.BlockOffset(block);
    bytes_ = tiling.BlockElements(block);
    tileBytes_ = tiling.tileLength;
    elements_ = elements;
    keep_ = keep;
    rng_ = rng;
    maskGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(mask) + firstByte_, bytes_);
    pipe_.InitBuffer(outQueue_, BUFFER_NUM, tileBytes_);
  }

  __aicore__ inline void Process() {
    const uint64_t tiles = (bytes_ + tileBytes_ - 1) / tileBytes_;
    for (uint64_t i = 0; i < tiles; ++i) {
      const uint64_t start = i * tileBytes_;
      const uint32_t count = static_cast<uint32_t>(i + 1 < tiles ? tileBytes_ : bytes_ - start);
      AscendC::LocalTensor<uint8_t> m = outQueue_.AllocTensor<uint8_t>();
      uint8_t* out = m.GetPhyAddr();
      for (uint32_t j = 0; j < count; ++j) {
        const uint64_t element0 = (firstByte_ + start + j) * 8;
        uint8_t bits = 0;
        for (uint32_t k = 0; k < 8; ++k) {
          const uint64_t element = element0 + k;
          if (element < elements_ && BernoulliDraw(Philox4x32_10(element, rng_).w[0], keep_)) {
            bits = static_cast<uint8_t>(bits | (1u << k));
          }
        }
        out[j] = bits;
      }
      outQueue_.EnQue(m);
      AscendC::LocalTensor<uint8_t> mOut = outQueue_.DeQue<uint8_t>();
      CopyTileOut(maskGm_[start], mOut, count);
      outQueue_.FreeTensor(mOut);
    }
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue_;
  AscendC::GlobalTensor<uint8_t> maskGm_;
  uint64_t firstByte_ = 0;
  uint64_t bytes_ = 0;
  uint32_t tileBytes_ = 0;
  uint64_t elements_ = 0;
  double keep_ = 1.0;
  PhiloxArgs rng_;
};

__global__ __aicore__ void dropout_gen_mask_custom(GM_ADDR mask, ElementwiseTiling tiling, uint64_t elements,
                                                   double keep, PhiloxArgs rng) {
  KernelGenMask op;
  op.Init(mask, tiling, elements, keep, rng);
  op.Process();
}

// Blocks and tiles start at multiples of 32 elements, so each starts on a mask byte.
template <typename T>
class KernelDoMask {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR mask, GM_ADDR y, const ElementwiseTiling& tiling, float scale) {
    const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
    const uint64_t offset = tiling.BlockOffset(block);
    length_ = tiling.BlockElements(block);
    tileLength_ = tiling.tileLength;
    scale_ = scale;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + offset, length_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + offset, length_);
    maskGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(mask) + offset / 8, (length_ + 7) / 8);
    pipe_.InitBuffer(inQueueX_, BUFFER_NUM, tileLength_ * sizeof(T));
    pipe_.InitBuffer(inQueueMask_, BUFFER_NUM, (tileLength_ + 7) / 8);
    pipe_.InitBuffer(outQueueY_, BUFFER_NUM, tileLength_ * sizeof(T));
  }

  __aicore__ inline void Process() {
    using A = AscendC::detail::Arith<T>;
    using C = typename A::Compute;
    const uint64_t tiles = (length_ + tileLength_ - 1) / tileLength_;
    for (uint64_t i = 0; i < tiles; ++i) {
      const uint64_t start = i * tileLength_;
      const uint32_t count = static_cast<uint32_t>(i + 1 < tiles ? tileLength_ : length_ - start);
      AscendC::LocalTensor<T> xIn = inQueueX_.AllocTensor<T>();
      AscendC::LocalTensor<uint8_t> mIn = inQueueMask_.AllocTensor<uint8_t>();
      CopyTileIn(xIn, xGm_[start], count);
      CopyTileIn(mIn, maskGm_[start / 8], (count + 7) / 8);
      inQueueX_.EnQue(xIn);
      inQueueMask_.EnQue(mIn);

      AscendC::LocalTensor<T> x = inQueueX_.DeQue<T>();
      AscendC::LocalTensor<uint8_t> m = inQueueMask_.DeQue<uint8_t>();
      AscendC::LocalTensor<T> y = outQueueY_.AllocTensor<T>();
      const auto* xs = reinterpret_cast<const typename A::Storage*>(x.GetPhyAddr());
      const uint8_t* bits = m.GetPhyAddr();
      auto* ys = reinterpret_cast<typename A::Storage*>(y.GetPhyAddr());
      const C scale = static_cast<C>(scale_);
      for (uint32_t k = 0; k < count; ++k) {
        const bool keep = (bits[k / 8] >> (k % 8)) & 1u;
        ys[k] = A::Store(keep ? static_cast<C>(A::Load(xs[k]) * scale) : static_cast<C>(0));
      }
      outQueueY_.EnQue(y);
      inQueueX_.FreeTensor(x);
      inQueueMask_.FreeTensor(m);

      AscendC::LocalTensor<T> yOut = outQueueY_.DeQue<T>();
      CopyTileOut(yGm_[start], yOut, count);
      outQueueY_.FreeTensor(yOut);
    }
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX_;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueMask_;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY_;
  AscendC::GlobalTensor<T> xGm_;
  AscendC::GlobalTensor<uint8_t> maskGm_;
  AscendC::GlobalTensor<T> yGm_;
  uint64_t length_ = 0;
  uint32_t tileLength_ = 0;
  float scale_ = 1.0f;
};

template <typename T>
__global__ __aicore__ void dropout_do_mask_custom(GM_ADDR x, GM_ADDR mask, GM_ADDR y, ElementwiseTiling tiling,
                                                  float scale) {
  KernelDoMask<T> op;
  op.Init(x, mask, y, tiling, scale);
  op.Process();
}

}  // namespace

aclError LaunchDropoutGenMask(void* mask, uint64_t maskBytes, uint64_t elements, double prob, PhiloxArgs rng,
                              aclrtStream stream) {
  if (maskBytes == 0) return ACL_SUCCESS;
  const ElementwiseTiling tiling = ComputeElementwiseTiling(maskBytes, BUFFER_NUM, 1);
  return LaunchKernel("dropout_gen_mask_custom", tiling.blockDim, stream, dropout_gen_mask_custom, mask, tiling,
                      elements, 1.0 - prob, rng);
}

aclError LaunchDropoutDoMask(aclDataType dtype, const void* x, const void* mask, void* y, uint64_t n, double prob,
                             aclrtStream stream) {
  return DispatchKernelType(dtype, "dropout_do_mask_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    if constexpr (!(std::is_same<T, float>::value || std::is_same<T, half>::value ||
                    std::is_same<T, bfloat16_t>::value)) {
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE,
                        "kernel 'dropout_do_mask_custom' does not support data type %s", DataTypeName(dtype));
    } else {
      if (n == 0) return ACL_SUCCESS;
      const float scale = prob >= 1.0 ? 0.0f : static_cast<float>(1.0 / (1.0 - prob));
      // Per element: x and y double-buffered, plus an eighth of a mask byte (counted as one).
      const ElementwiseTiling tiling = ComputeElementwiseTiling(n, BUFFER_NUM * (2 * sizeof(T) + 1), sizeof(T));
      return LaunchKernel("dropout_do_mask_custom", tiling.blockDim, stream, dropout_do_mask_custom<T>,
                          const_cast<void*>(x), const_cast<void*>(mask), y, tiling, scale);
    }
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
