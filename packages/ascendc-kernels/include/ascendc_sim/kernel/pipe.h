// TPipe, TQue and TBuf: the unified-buffer memory manager of a block.
//
// A TPipe hands out the current AI core's unified buffer (UB) from its start;
// InitBuffer carves queue buffers (num x len bytes, each 32-byte aligned) or a
// TBuf out of it. Exceeding the UB fails the launch with the requested and the
// available bytes. A TQue moves LocalTensors between pipeline stages:
// AllocTensor -> EnQue -> DeQue -> FreeTensor; with two buffers (BUFFER_NUM = 2)
// copy-in of tile i+1 and compute of tile i use different buffers (double
// buffering). On the CPU the stages run in program order, so the queue checks
// the protocol (no alloc without a free buffer, no DeQue of an empty queue).
#ifndef ASCENDC_SIM_KERNEL_PIPE_H
#define ASCENDC_SIM_KERNEL_PIPE_H

#include <stdint.h>

#include "ascendc_sim/kernel/tensor.h"
#include "ascendc_sim/kernel/trap.h"
#include "ascendc_sim/launch.h"

namespace AscendC {

class TPipe;

namespace detail {

constexpr uint32_t kMaxQueueBuffers = 8;

inline uint64_t AlignUp32(uint64_t bytes) { return (bytes + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE; }

class QueueStorage {
 public:
  __aicore__ inline uint8_t BufferCount() const { return num_; }
  __aicore__ inline uint32_t BufferBytes() const { return len_; }

 protected:
  __aicore__ inline void Attach(uint8_t* base, uint8_t num, uint32_t len) {
    base_ = base;
    num_ = num;
    len_ = len;
    inUse_ = 0;
    head_ = 0;
    count_ = 0;
  }

  __aicore__ inline int32_t AllocIndex(const char* what) {
    if (base_ == nullptr) ascendc_sim::KernelFail("%s: queue has no buffers (TPipe::InitBuffer not called)", what);
    for (uint32_t i = 0; i < num_; ++i) {
      if ((inUse_ & (1u << i)) == 0) {
        inUse_ |= 1u << i;
        return static_cast<int32_t>(i);
      }
    }
    ascendc_sim::KernelFail("%s: all %u buffers of the queue are in use (missing FreeTensor?)", what, num_);
  }

  __aicore__ inline int32_t IndexOf(const void* addr, const char* what) const {
    const uint8_t* p = static_cast<const uint8_t*>(addr);
    if (base_ != nullptr && p >= base_ && p < base_ + static_cast<uint64_t>(num_) * len_) {
      const uint64_t offset = static_cast<uint64_t>(p - base_);
      if (offset % len_ == 0) return static_cast<int32_t>(offset / len_);
    }
    ascendc_sim::KernelFail("%s: tensor does not start a buffer of this queue", what);
  }

  __aicore__ inline void Release(const void* addr, const char* what) {
    const int32_t index = IndexOf(addr, what);
    if ((inUse_ & (1u << index)) == 0) ascendc_sim::KernelFail("%s: buffer %d is not allocated (double free?)", what, index);
    inUse_ &= ~(1u << index);
  }

  __aicore__ inline void Push(const void* addr, const char* what) {
    const int32_t index = IndexOf(addr, what);
    if ((inUse_ & (1u << index)) == 0) ascendc_sim::KernelFail("%s: buffer %d was not allocated with AllocTensor", what, index);
    if (count_ >= num_) ascendc_sim::KernelFail("%s: queue already holds %u tensors", what, count_);
    order_[(head_ + count_) % kMaxQueueBuffers] = static_cast<uint8_t>(index);
    ++count_;
  }

  __aicore__ inline int32_t Pop(const char* what) {
    if (count_ == 0) ascendc_sim::KernelFail("%s: queue is empty (DeQue without EnQue)", what);
    const uint8_t index = order_[head_];
    head_ = static_cast<uint8_t>((head_ + 1) % kMaxQueueBuffers);
    --count_;
    return index;
  }

  __aicore__ inline uint8_t* BufferAddr(int32_t index) const { return base_ + static_cast<uint64_t>(index) * len_; }
  __aicore__ inline uint8_t Queued() const { return count_; }
  __aicore__ inline uint32_t InUseMask() const { return inUse_; }

 private:
  uint8_t* base_ = nullptr;
  uint32_t len_ = 0;
  uint8_t num_ = 0;
  uint32_t inUse_ = 0;
  uint8_t order_[kMaxQueueBuffers] = {};
  uint8_t head_ = 0;
  uint8_t count_ = 0;

  friend class AscendC::TPipe;
};

}  // namespace detail

// A queue between pipeline stages at position `pos`; `depth` is kept for source
// compatibility (the buffer count given to InitBuffer bounds what it holds).
template <TPosition pos, int32_t depth = 1, auto mask = 0>
class TQue : public detail::QueueStorage {
 public:
  static constexpr TPosition kPosition = pos;
  static constexpr int32_t kDepth = depth;

  template <typename T>
  __aicore__ inline LocalTensor<T> AllocTensor() {
    const int32_t index = AllocIndex("TQue::AllocTensor");
    return LocalTensor<T>(reinterpret_cast<T*>(BufferAddr(index)), BufferBytes() / sizeof(T), index);
  }
  template <typename T>
  __aicore__ inline void FreeTensor(const LocalTensor<T>& tensor) {
    Release(tensor.GetPhyAddr(), "TQue::FreeTensor");
  }
  template <typename T>
  __aicore__ inline bool EnQue(const LocalTensor<T>& tensor) {
    Push(tensor.GetPhyAddr(), "TQue::EnQue");
    return true;
  }
  template <typename T>
  __aicore__ inline LocalTensor<T> DeQue() {
    const int32_t index = Pop("TQue::DeQue");
    return LocalTensor<T>(reinterpret_cast<T*>(BufferAddr(index)), BufferBytes() / sizeof(T), index);
  }
  __aicore__ inline bool HasTensorInQue() const { return Queued() != 0; }
  __aicore__ inline bool VacantInQue() const { return Queued() < BufferCount(); }
  __aicore__ inline int32_t GetTensorCountInQue() const { return Queued(); }
  __aicore__ inline bool HasIdleBuffer() const {
    return BufferCount() != 0 && InUseMask() != ((1u << BufferCount()) - 1u);
  }
};

// A queue binding two positions (e.g. VECIN -> VECOUT); same protocol as TQue.
template <TPosition src, TPosition dst, int32_t depth = 1, auto mask = 0>
class TQueBind : public TQue<dst, depth, mask> {};

// A plain scratch buffer of the unified buffer (no queue protocol).
template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  template <typename T>
  __aicore__ inline LocalTensor<T> Get() const {
    if (base_ == nullptr) ascendc_sim::KernelFail("TBuf::Get: buffer not initialised (TPipe::InitBuffer not called)");
    return LocalTensor<T>(reinterpret_cast<T*>(base_), len_ / sizeof(T));
  }
  template <typename T>
  __aicore__ inline LocalTensor<T> Get(uint32_t count) const {
    if (static_cast<uint64_t>(count) * sizeof(T) > len_) {
      ascendc_sim::KernelFail("TBuf::Get: %u elements need %llu bytes, the buffer has %u", count,
                              static_cast<unsigned long long>(count * sizeof(T)), len_);
    }
    return LocalTensor<T>(reinterpret_cast<T*>(base_), count);
  }
  __aicore__ inline uint32_t GetLength() const { return len_; }

 private:
  uint8_t* base_ = nullptr;
  uint32_t len_ = 0;
  friend class TPipe;
};

namespace detail {

// Which local memory of the core holds a position's buffers.
constexpr aclsimLocalMemory MemoryOf(TPosition pos) {
  return pos == TPosition::A1 || pos == TPosition::B1 || pos == TPosition::C1 ? ACLSIM_MEM_L1
         : pos == TPosition::A2                                              ? ACLSIM_MEM_L0A
         : pos == TPosition::B2                                              ? ACLSIM_MEM_L0B
         : pos == TPosition::CO1                                             ? ACLSIM_MEM_L0C
                                                                             : ACLSIM_MEM_UB;
}

inline const char* MemoryName(aclsimLocalMemory mem) {
  switch (mem) {
    case ACLSIM_MEM_L1: return "L1 buffer";
    case ACLSIM_MEM_L0A: return "L0A buffer";
    case ACLSIM_MEM_L0B: return "L0B buffer";
    case ACLSIM_MEM_L0C: return "L0C buffer";
    default: return "unified buffer";
  }
}

constexpr int kLocalMemories = 5;

}  // namespace detail

// Hands out the core's local memories: VECIN/VECOUT/VECCALC (and CO2) buffers
// come from the unified buffer, A1/B1/C1 from L1, A2 from L0A, B2 from L0B and
// CO1 from L0C, each from its start; exceeding one fails the launch.
class TPipe {
 public:
  __aicore__ TPipe() { base_[ACLSIM_MEM_UB] = static_cast<uint8_t*>(aclsimGetUnifiedBuffer(&capacity_[ACLSIM_MEM_UB])); }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  // `num` buffers of `len` bytes each (len rounded up to 32 bytes).
  template <TPosition pos, int32_t depth, auto mask>
  __aicore__ inline bool InitBuffer(TQue<pos, depth, mask>& que, uint8_t num, uint32_t len) {
    if (num == 0 || num > detail::kMaxQueueBuffers) {
      ascendc_sim::KernelFail("TPipe::InitBuffer: a queue takes 1..%u buffers, got %u", detail::kMaxQueueBuffers, num);
    }
    const uint64_t aligned = detail::AlignUp32(len);
    uint8_t* base = Allocate(detail::MemoryOf(pos), aligned * num, num, aligned);
    que.Attach(base, num, static_cast<uint32_t>(aligned));
    return true;
  }

  template <TPosition pos>
  __aicore__ inline bool InitBuffer(TBuf<pos>& buf, uint32_t len) {
    const uint64_t aligned = detail::AlignUp32(len);
    buf.base_ = Allocate(detail::MemoryOf(pos), aligned, 1, aligned);
    buf.len_ = static_cast<uint32_t>(aligned);
    return true;
  }

  // Releases everything InitBuffer handed out.
  __aicore__ inline void Reset() {
    for (uint64_t& u : used_) u = 0;
  }
  __aicore__ inline void Destroy() { Reset(); }

  // Unified-buffer bytes handed out / available.
  __aicore__ inline uint64_t UsedBytes() const { return used_[ACLSIM_MEM_UB]; }
  __aicore__ inline uint64_t CapacityBytes() const { return capacity_[ACLSIM_MEM_UB]; }

 private:
  __aicore__ inline uint8_t* Allocate(aclsimLocalMemory mem, uint64_t bytes, uint32_t num, uint64_t each) {
    if (base_[mem] == nullptr && mem != ACLSIM_MEM_UB) {
      base_[mem] = static_cast<uint8_t*>(aclsimGetLocalMemory(mem, &capacity_[mem]));
    }
    if (base_[mem] == nullptr) {
      ascendc_sim::KernelFail("TPipe::InitBuffer: no %s (not running on an AI core)", detail::MemoryName(mem));
    }
    if (used_[mem] + bytes > capacity_[mem]) {
      ascendc_sim::KernelFail(
          "TPipe::InitBuffer: requested %llu bytes (%u x %llu) of %s but only %llu of %llu bytes "
          "are available",
          static_cast<unsigned long long>(bytes), num, static_cast<unsigned long long>(each), detail::MemoryName(mem),
          static_cast<unsigned long long>(capacity_[mem] - used_[mem]),
          static_cast<unsigned long long>(capacity_[mem]));
    }
    uint8_t* p = base_[mem] + used_[mem];
    used_[mem] += bytes;
    return p;
  }

  uint8_t* base_[detail::kLocalMemories] = {};
  uint64_t capacity_[detail::kLocalMemories] = {};
  uint64_t used_[detail::kLocalMemories] = {};
};

// The running block's index and the launch's block count.
__aicore__ inline int64_t GetBlockIdx() { return static_cast<int64_t>(aclsimGetBlockIdx()); }
__aicore__ inline int64_t GetBlockNum() { return static_cast<int64_t>(aclsimGetBlockNum()); }

// Pipeline synchronisation is implicit on the CPU (stages run in order).
enum class PipeType : uint8_t { PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL };
constexpr PipeType PIPE_V = PipeType::PIPE_V;
constexpr PipeType PIPE_ALL = PipeType::PIPE_ALL;
constexpr PipeType PIPE_MTE2 = PipeType::PIPE_MTE2;
constexpr PipeType PIPE_MTE3 = PipeType::PIPE_MTE3;
constexpr PipeType PIPE_M = PipeType::PIPE_M;
constexpr PipeType PIPE_MTE1 = PipeType::PIPE_MTE1;
template <PipeType pipe>
__aicore__ inline void PipeBarrier() {}

}  // namespace AscendC

#endif  // ASCENDC_SIM_KERNEL_PIPE_H
