// DataCopy / DataCopyPad: moves between global memory and the unified buffer.
//
// As on hardware, DataCopy moves whole 32-byte data blocks: the byte count
// (count * sizeof(T)) must be a multiple of 32, otherwise the launch fails.
// Tails use DataCopyPad, whose block length is in bytes.
#ifndef ASCENDC_SIM_KERNEL_DATA_COPY_H
#define ASCENDC_SIM_KERNEL_DATA_COPY_H

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "ascendc_sim/kernel/tensor.h"
#include "ascendc_sim/kernel/trap.h"

namespace AscendC {

// Strided block copy; lengths and strides in 32-byte data blocks.
struct DataCopyParams {
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  uint16_t srcStride = 0;
  uint16_t dstStride = 0;
};

// DataCopyPad's description. blockLen is in bytes. The global side's stride
// (gap between blocks) is in bytes, the unified-buffer side's in 32-byte blocks;
// every block starts 32-byte aligned in the unified buffer.
struct DataCopyExtParams {
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};

// Padding of a GM -> UB DataCopyPad: elements written left/right of each block.
template <typename T>
struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = T();
};

namespace detail {

inline void CheckBlockAligned(const char* what, uint64_t bytes) {
  if (bytes % ONE_BLK_SIZE != 0) {
    ascendc_sim::KernelFail("%s: %llu bytes is not a multiple of the 32-byte data block; use DataCopyPad for tails",
                            what, static_cast<unsigned long long>(bytes));
  }
}

template <typename T>
inline void CheckLocal(const char* what, const LocalTensor<T>& t, uint64_t elements) {
  if (t.GetPhyAddr() == nullptr) ascendc_sim::KernelFail("%s: local tensor is not allocated", what);
  if (elements > t.GetSize()) {
    ascendc_sim::KernelFail("%s: %llu elements exceed the local tensor's %u", what,
                            static_cast<unsigned long long>(elements), t.GetSize());
  }
}

// Global buffers at least this large are written with streaming (non-temporal)
// stores: their data would not stay in cache anyway, and skipping the
// read-for-ownership of the destination lines saves a third of the traffic.
constexpr uint64_t kStreamingStoreBufferBytes = uint64_t{4} << 20;

// UB -> GM bytes; `bufferBytes` is the destination global buffer's size (0: unknown).
// Streaming stores are ordered by an sfence at the end unless `fence` is false
// (the caller then calls FenceStreamingStores once after several copies).
inline void CopyToGlobal(void* dst, const void* src, size_t bytes, uint64_t bufferBytes, bool fence = true) {
#if defined(__SSE2__)
  if (bufferBytes >= kStreamingStoreBufferBytes && bytes >= 1024) {
    uint8_t* d = static_cast<uint8_t*>(dst);
    const uint8_t* s = static_cast<const uint8_t*>(src);
    const size_t head = (16 - (reinterpret_cast<uintptr_t>(d) & 15)) & 15;
    memcpy(d, s, head);
    size_t i = head;
    for (; i + 64 <= bytes; i += 64) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 16));
      const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 32));
      const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 48));
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + i), a);
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 16), b);
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 32), c);
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 48), e);
    }
    memcpy(d + i, s + i, bytes - i);
    if (fence) _mm_sfence();
    return;
  }
#else
  (void)bufferBytes;
  (void)fence;
#endif
  memcpy(dst, src, bytes);
}

inline void FenceStreamingStores() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace detail

// GM -> UB, `count` contiguous elements.
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count) {
  detail::CheckBlockAligned("DataCopy(GM->UB)", static_cast<uint64_t>(count) * sizeof(T));
  detail::CheckLocal("DataCopy(GM->UB)", dst, count);
  src.CheckRange("DataCopy(GM->UB)", 0, count);
  memcpy(dst.GetPhyAddr(), src.GetPhyAddr(), static_cast<size_t>(count) * sizeof(T));
}

// UB -> GM, `count` contiguous elements.
template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::CheckBlockAligned("DataCopy(UB->GM)", static_cast<uint64_t>(count) * sizeof(T));
  detail::CheckLocal("DataCopy(UB->GM)", src, count);
  dst.CheckRange("DataCopy(UB->GM)", 0, count);
  detail::CopyToGlobal(dst.GetPhyAddr(), src.GetPhyAddr(), static_cast<size_t>(count) * sizeof(T),
                       dst.GetBufferExtent() * sizeof(T));
}

// UB -> UB.
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::CheckBlockAligned("DataCopy(UB->UB)", static_cast<uint64_t>(count) * sizeof(T));
  detail::CheckLocal("DataCopy(UB->UB)", dst, count);
  detail::CheckLocal("DataCopy(UB->UB)", src, count);
  memmove(dst.GetPhyAddr(), src.GetPhyAddr(), static_cast<size_t>(count) * sizeof(T));
}

// GM -> UB, strided blocks (units of 32 bytes).
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params) {
  const uint64_t blockBytes = static_cast<uint64_t>(params.blockLen) * ONE_BLK_SIZE;
  const uint64_t srcPitch = blockBytes + static_cast<uint64_t>(params.srcStride) * ONE_BLK_SIZE;
  const uint64_t dstPitch = blockBytes + static_cast<uint64_t>(params.dstStride) * ONE_BLK_SIZE;
  if (params.blockCount == 0) return;
  const uint64_t lastDst = (params.blockCount - 1) * dstPitch + blockBytes;
  const uint64_t lastSrc = (params.blockCount - 1) * srcPitch + blockBytes;
  detail::CheckLocal("DataCopy(GM->UB, params)", dst, lastDst / sizeof(T));
  src.CheckRange("DataCopy(GM->UB, params)", 0, lastSrc / sizeof(T));
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  uint8_t* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  for (uint32_t b = 0; b < params.blockCount; ++b) memcpy(d + b * dstPitch, s + b * srcPitch, blockBytes);
}

// UB -> GM, strided blocks (units of 32 bytes).
template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params) {
  const uint64_t blockBytes = static_cast<uint64_t>(params.blockLen) * ONE_BLK_SIZE;
  const uint64_t srcPitch = blockBytes + static_cast<uint64_t>(params.srcStride) * ONE_BLK_SIZE;
  const uint64_t dstPitch = blockBytes + static_cast<uint64_t>(params.dstStride) * ONE_BLK_SIZE;
  if (params.blockCount == 0) return;
  const uint64_t lastDst = (params.blockCount - 1) * dstPitch + blockBytes;
  const uint64_t lastSrc = (params.blockCount - 1) * srcPitch + blockBytes;
  detail::CheckLocal("DataCopy(UB->GM, params)", src, lastSrc / sizeof(T));
  dst.CheckRange("DataCopy(UB->GM, params)", 0, lastDst / sizeof(T));
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  uint8_t* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  for (uint32_t b = 0; b < params.blockCount; ++b) memcpy(d + b * dstPitch, s + b * srcPitch, blockBytes);
}

// GM -> UB with byte-granular blocks; each UB block is padded to 32 bytes.
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyExtParams& params, const DataCopyPadExtParams<T>& pad) {
  if (params.blockLen % sizeof(T) != 0) {
    ascendc_sim::KernelFail("DataCopyPad(GM->UB): blockLen %u is not a multiple of the element size %zu",
                            params.blockLen, sizeof(T));
  }
  const uint64_t elems = params.blockLen / sizeof(T);
  const uint64_t padded = pad.isPad ? pad.leftPadding + elems + pad.rightPadding : elems;
  const uint64_t ubBlockBytes = (padded * sizeof(T) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const uint64_t dstPitch = ubBlockBytes + static_cast<uint64_t>(params.dstStride) * ONE_BLK_SIZE;
  const uint64_t srcPitch = params.blockLen + static_cast<uint64_t>(params.srcStride);
  if (params.blockCount == 0) return;
  detail::CheckLocal("DataCopyPad(GM->UB)", dst, ((params.blockCount - 1) * dstPitch + ubBlockBytes) / sizeof(T));
  src.CheckRange("DataCopyPad(GM->UB)", 0, ((params.blockCount - 1) * srcPitch + params.blockLen) / sizeof(T));
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  uint8_t* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  for (uint32_t b = 0; b < params.blockCount; ++b) {
    T* block = reinterpret_cast<T*>(d + b * dstPitch);
    const uint64_t lead = pad.isPad ? pad.leftPadding : 0;
    memcpy(block + lead, s + b * srcPitch, params.blockLen);
    if (pad.isPad) {
      for (uint64_t i = 0; i < lead; ++i) block[i] = pad.paddingValue;
      const uint64_t slots = ubBlockBytes / sizeof(T);
      for (uint64_t i = lead + elems; i < slots; ++i) block[i] = pad.paddingValue;
    }
  }
}

// UB -> GM with byte-granular blocks; each UB block starts 32-byte aligned.
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                   const DataCopyExtParams& params) {
  if (params.blockLen % sizeof(T) != 0) {
    ascendc_sim::KernelFail("DataCopyPad(UB->GM): blockLen %u is not a multiple of the element size %zu",
                            params.blockLen, sizeof(T));
  }
  const uint64_t ubBlockBytes = (static_cast<uint64_t>(params.blockLen) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
  const uint64_t srcPitch = ubBlockBytes + static_cast<uint64_t>(params.srcStride) * ONE_BLK_SIZE;
  const uint64_t dstPitch = params.blockLen + static_cast<uint64_t>(params.dstStride);
  if (params.blockCount == 0) return;
  detail::CheckLocal("DataCopyPad(UB->GM)", src, ((params.blockCount - 1) * srcPitch + params.blockLen) / sizeof(T));
  dst.CheckRange("DataCopyPad(UB->GM)", 0, ((params.blockCount - 1) * dstPitch + params.blockLen) / sizeof(T));
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  uint8_t* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  const uint64_t extentBytes = dst.GetBufferExtent() * sizeof(T);
  for (uint32_t b = 0; b < params.blockCount; ++b) {
    detail::CopyToGlobal(d + b * dstPitch, s + b * srcPitch, params.blockLen, extentBytes, false);
  }
  detail::FenceStreamingStores();
}

}  // namespace AscendC

#endif  // ASCENDC_SIM_KERNEL_DATA_COPY_H
