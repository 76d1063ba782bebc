// GlobalTensor (a typed view of global memory) and LocalTensor (a typed view
// of the current AI core's unified buffer), as in Ascend C.
#ifndef ASCENDC_SIM_KERNEL_TENSOR_H
#define ASCENDC_SIM_KERNEL_TENSOR_H

#include <stdint.h>

#include "ascendc_sim/kernel/macros.h"
#include "ascendc_sim/kernel/trap.h"

namespace AscendC {

enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  MAX,
};
using QuePosition = TPosition;

// Bytes of one data block: the unit of alignment of unified-buffer transfers.
constexpr uint32_t ONE_BLK_SIZE = 32;

template <typename T>
class GlobalTensor {
 public:
  __aicore__ GlobalTensor() = default;

  // `bufferSize` in elements; accesses beyond it fail the launch.
  __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) {
    addr_ = buffer;
    size_ = bufferSize;
    extent_ = bufferSize;
    sized_ = true;
  }
  __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer) {
    addr_ = buffer;
    size_ = 0;
    extent_ = 0;
    sized_ = false;
  }

  __aicore__ inline T GetValue(uint64_t offset) const {
    CheckRange("GlobalTensor::GetValue", offset, 1);
    return addr_[offset];
  }
  __aicore__ inline void SetValue(uint64_t offset, T value) const {
    CheckRange("GlobalTensor::SetValue", offset, 1);
    addr_[offset] = value;
  }
  __aicore__ inline T& operator()(uint64_t offset) const {
    CheckRange("GlobalTensor::operator()", offset, 1);
    return addr_[offset];
  }

  // The view starting `offset` elements further.
  __aicore__ inline GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor view;
    view.addr_ = addr_ + offset;
    view.sized_ = sized_;
    view.size_ = sized_ ? (offset <= size_ ? size_ - offset : 0) : 0;
    view.extent_ = extent_;
    return view;
  }

  __aicore__ inline __gm__ T* GetPhyAddr() const { return addr_; }
  __aicore__ inline __gm__ T* GetPhyAddr(uint64_t offset) const { return addr_ + offset; }
  // Elements of the view, 0 when the buffer was set without a size.
  __aicore__ inline uint64_t GetSize() const { return size_; }
  // Simulator: elements of the whole buffer given to SetGlobalBuffer (views
  // keep it); DataCopy streams its stores into large buffers.
  __aicore__ inline uint64_t GetBufferExtent() const { return extent_; }

  // Fails the launch when [offset, offset + count) leaves a sized buffer.
  __aicore__ inline void CheckRange(const char* what, uint64_t offset, uint64_t count) const {
    if (addr_ == nullptr) ascendc_sim::KernelFail("%s: global tensor has no buffer (SetGlobalBuffer not called)", what);
    if (sized_ && offset + count > size_) {
      ascendc_sim::KernelFail("%s: elements [%llu, %llu) are outside the global buffer of %llu elements", what,
                              static_cast<unsigned long long>(offset),
                              static_cast<unsigned long long>(offset + count),
                              static_cast<unsigned long long>(size_));
    }
  }

 private:
  T* addr_ = nullptr;
  uint64_t size_ = 0;
  uint64_t extent_ = 0;
  bool sized_ = false;
};

template <typename T>
class LocalTensor {
 public:
  __aicore__ LocalTensor() = default;
  __aicore__ LocalTensor(T* addr, uint32_t size, int32_t bufferId = -1)
      : addr_(addr), size_(size), bufferId_(bufferId) {}

  __aicore__ inline T GetValue(uint32_t index) const {
    CheckIndex("LocalTensor::GetValue", index);
    return addr_[index];
  }
  __aicore__ inline void SetValue(uint32_t index, T value) const {
    CheckIndex("LocalTensor::SetValue", index);
    addr_[index] = value;
  }
  __aicore__ inline T& operator()(uint32_t index) const {
    CheckIndex("LocalTensor::operator()", index);
    return addr_[index];
  }

  // The view starting `offset` elements further (same buffer).
  __aicore__ inline LocalTensor operator[](uint32_t offset) const {
    if (offset > size_) {
      ascendc_sim::KernelFail("LocalTensor::operator[]: offset %u is beyond the tensor's %u elements", offset, size_);
    }
    return LocalTensor(addr_ + offset, size_ - offset, bufferId_);
  }

  // The same bytes seen as another element type.
  template <typename U>
  __aicore__ inline LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(reinterpret_cast<U*>(addr_), static_cast<uint32_t>(size_ * sizeof(T) / sizeof(U)),
                          bufferId_);
  }

  __aicore__ inline T* GetPhyAddr() const { return addr_; }
  __aicore__ inline T* GetPhyAddr(uint32_t offset) const { return addr_ + offset; }
  // Capacity in elements.
  __aicore__ inline uint32_t GetSize() const { return size_; }
  __aicore__ inline uint32_t GetLength() const { return size_ * static_cast<uint32_t>(sizeof(T)); }
  __aicore__ inline int32_t GetBufferId() const { return bufferId_; }

 private:
  __aicore__ inline void CheckIndex(const char* what, uint32_t index) const {
    if (addr_ == nullptr) ascendc_sim::KernelFail("%s: local tensor is not allocated", what);
    if (index >= size_) ascendc_sim::KernelFail("%s: index %u is outside the tensor's %u elements", what, index, size_);
  }

  T* addr_ = nullptr;
  uint32_t size_ = 0;
  int32_t bufferId_ = -1;
};

}  // namespace AscendC

#endif  // ASCENDC_SIM_KERNEL_TENSOR_H
