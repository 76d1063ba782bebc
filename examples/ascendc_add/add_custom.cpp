// add_custom: z = x + y, written in the Ascend C style.
//
// Each block owns one contiguous slice of the input; within it, tiles move
// global memory -> unified buffer -> compute -> global memory through queues
// with two buffers each, so copy-in of the next tile can overlap compute on
// hardware. The block count and tile size come from the input size, the core
// count and the unified-buffer size (the tiling), never from constants.
#include "add_custom.h"

#include <algorithm>

#include "kernel_operator.h"

namespace ascendc_ops {
namespace {

constexpr int32_t kBufferNum = 2;        // double buffering
constexpr uint32_t kQueuesInUb = 3;      // x, y in; z out
constexpr uint64_t kMinBlockBytes = 16 * 1024;  // below this, another core costs more than it saves

struct AddCustomTiling {
  uint64_t totalLength;  // elements in the whole tensor
  uint64_t blockLength;  // elements per block (the last block takes the rest)
  uint32_t tileLength;   // elements per tile (a multiple of one 32-byte data block)
};

template <typename T>
class KernelAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddCustomTiling& tiling) {
    const uint64_t start = tiling.blockLength * AscendC::GetBlockIdx();
    length_ = std::min(tiling.blockLength, tiling.totalLength - std::min(start, tiling.totalLength));
    tileLength_ = tiling.tileLength;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + start, length_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + start, length_);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z) + start, length_);
    pipe_.InitBuffer(inQueueX_, kBufferNum, tileLength_ * sizeof(T));
    pipe_.InitBuffer(inQueueY_, kBufferNum, tileLength_ * sizeof(T));
    pipe_.InitBuffer(outQueueZ_, kBufferNum, tileLength_ * sizeof(T));
  }

  __aicore__ inline void Process() {
    for (uint64_t offset = 0; offset < length_; offset += tileLength_) {
      const uint32_t count = static_cast<uint32_t>(std::min<uint64_t>(tileLength_, length_ - offset));
      CopyIn(offset, count);
      Compute(count);
      CopyOut(offset, count);
    }
  }

 private:
  static constexpr uint32_t kElemsPerDataBlock = AscendC::ONE_BLK_SIZE / sizeof(T);

  __aicore__ inline void CopyIn(uint64_t offset, uint32_t count) {
    AscendC::LocalTensor<T> xLocal = inQueueX_.template AllocTensor<T>();
    AscendC::LocalTensor<T> yLocal = inQueueY_.template AllocTensor<T>();
    if (count % kElemsPerDataBlock == 0) {
      AscendC::DataCopy(xLocal, xGm_[offset], count);
      AscendC::DataCopy(yLocal, yGm_[offset], count);
    } else {  // the tail is not a whole number of 32-byte blocks
      const AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
      const AscendC::DataCopyPadExtParams<T> noPad{false, 0, 0, T()};
      AscendC::DataCopyPad(xLocal, xGm_[offset], params, noPad);
      AscendC::DataCopyPad(yLocal, yGm_[offset], params, noPad);
    }
    inQueueX_.EnQue(xLocal);
    inQueueY_.EnQue(yLocal);
  }

  __aicore__ inline void Compute(uint32_t count) {
    AscendC::LocalTensor<T> xLocal = inQueueX_.template DeQue<T>();
    AscendC::LocalTensor<T> yLocal = inQueueY_.template DeQue<T>();
    AscendC::LocalTensor<T> zLocal = outQueueZ_.template AllocTensor<T>();
    AscendC::Add(zLocal, xLocal, yLocal, count);
    outQueueZ_.EnQue(zLocal);
    inQueueX_.FreeTensor(xLocal);
    inQueueY_.FreeTensor(yLocal);
  }

  __aicore__ inline void CopyOut(uint64_t offset, uint32_t count) {
    AscendC::LocalTensor<T> zLocal = outQueueZ_.template DeQue<T>();
    if (count % kElemsPerDataBlock == 0) {
      AscendC::DataCopy(zGm_[offset], zLocal, count);
    } else {
      const AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
      AscendC::DataCopyPad(zGm_[offset], zLocal, params);
    }
    outQueueZ_.FreeTensor(zLocal);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, kBufferNum> inQueueX_;
  AscendC::TQue<AscendC::TPosition::VECIN, kBufferNum> inQueueY_;
  AscendC::TQue<AscendC::TPosition::VECOUT, kBufferNum> outQueueZ_;
  AscendC::GlobalTensor<T> xGm_;
  AscendC::GlobalTensor<T> yGm_;
  AscendC::GlobalTensor<T> zGm_;
  uint64_t length_ = 0;
  uint32_t tileLength_ = 0;
};

template <typename T>
__global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddCustomTiling tiling) {
  KernelAdd<T> op;
  op.Init(x, y, z, tiling);
  op.Process();
}

// Host-side tiling: as many blocks as the cores allow while each block keeps at
// least kMinBlockBytes of work; tiles as large as the unified buffer allows.
template <typename T>
AddCustomTiling ComputeTiling(uint64_t totalLength) {
  constexpr uint64_t align = AscendC::ONE_BLK_SIZE / sizeof(T);
  const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const uint64_t minPerBlock = kMinBlockBytes / sizeof(T);
  const uint64_t blocks = std::clamp<uint64_t>((totalLength + minPerBlock - 1) / minPerBlock, 1, cores);
  uint64_t blockLength = (totalLength + blocks - 1) / blocks;
  blockLength = (blockLength + align - 1) / align * align;
  const uint64_t ubTile = aclsimGetUbSize() / (kQueuesInUb * kBufferNum * sizeof(T)) / align * align;
  const uint64_t tile = std::min<uint64_t>(ubTile, blockLength);
  return AddCustomTiling{totalLength, blockLength, static_cast<uint32_t>(std::max<uint64_t>(tile, align))};
}

template <typename T>
aclError Launch(const void* x, const void* y, void* z, uint64_t totalLength, aclrtStream stream) {
  const AddCustomTiling tiling = ComputeTiling<T>(totalLength);
  const uint32_t blockDim = static_cast<uint32_t>((totalLength + tiling.blockLength - 1) / tiling.blockLength);
  return ascendc_sim::LaunchKernel("add_custom", blockDim, stream, &add_custom<T>, x, y, z, tiling);
}

}  // namespace

aclError LaunchAddCustom(AddDtype dtype, const void* x, const void* y, void* z, uint64_t totalLength,
                         aclrtStream stream) {
  switch (dtype) {
    case AddDtype::kFloat16:
      return Launch<half>(x, y, z, totalLength, stream);
    case AddDtype::kBFloat16:
      return Launch<bfloat16_t>(x, y, z, totalLength, stream);
    case AddDtype::kFloat32:
      return Launch<float>(x, y, z, totalLength, stream);
  }
  return ACL_ERROR_INVALID_PARAM;
}

}  // namespace ascendc_ops
