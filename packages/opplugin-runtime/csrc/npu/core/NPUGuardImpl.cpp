#include "npu/core/NPUGuardImpl.h"

#include <c10/util/Exception.h>

#include "acl/acl_rt.h"
#include "npu/core/NPUCachingAllocator.h"
#include "npu/core/NPUException.h"
#include "npu/core/NPUFunctions.h"
#include "npu/core/NPUGuard.h"
#include "npu/core/NPUStream.h"

namespace c10_npu::impl {
namespace {

c10::DeviceIndex IndexOrCurrent(c10::Device d) {
  return d.has_index() ? d.index() : current_device();
}

}  // namespace

NPUGuardImpl::NPUGuardImpl(c10::DeviceType t) {
  TORCH_INTERNAL_ASSERT(t == static_type, "NPUGuardImpl constructed for ", t);
}

c10::Device NPUGuardImpl::exchangeDevice(c10::Device d) const {
  TORCH_INTERNAL_ASSERT(d.is_privateuseone(), "NPUGuardImpl::exchangeDevice got a ", d.type(), " device");
  const c10::DeviceIndex previous = current_device();
  if (d.index() != previous) {
    set_device(d.index());
  }
  return c10::Device(static_type, previous);
}

c10::Device NPUGuardImpl::getDevice() const {
  return c10::Device(static_type, current_device());
}

void NPUGuardImpl::setDevice(c10::Device d) const {
  TORCH_INTERNAL_ASSERT(d.is_privateuseone(), "NPUGuardImpl::setDevice got a ", d.type(), " device");
  set_device(d.index());
}

void NPUGuardImpl::uncheckedSetDevice(c10::Device d) const noexcept {
  set_device_nothrow(d.index());
}

c10::Stream NPUGuardImpl::getStream(c10::Device d) const noexcept {
  return getCurrentNPUStream(IndexOrCurrent(d)).unwrap();
}

c10::Stream NPUGuardImpl::getDefaultStream(c10::Device d) const {
  return getDefaultNPUStream(IndexOrCurrent(d)).unwrap();
}

c10::Stream NPUGuardImpl::getStreamFromGlobalPool(c10::Device d, bool isHighPriority) const {
  return getStreamFromPool(isHighPriority, IndexOrCurrent(d)).unwrap();
}

c10::Stream NPUGuardImpl::getNewStream(c10::Device d, int priority) const {
  return getStreamFromPool(priority < 0, IndexOrCurrent(d)).unwrap();
}

c10::Stream NPUGuardImpl::exchangeStream(c10::Stream s) const noexcept {
  const NPUStream stream(NPUStream::UNCHECKED, s);
  const NPUStream previous = getCurrentNPUStream(stream.device_index());
  setCurrentNPUStream(stream);
  return previous.unwrap();
}

c10::DeviceIndex NPUGuardImpl::deviceCount() const noexcept {
  return device_count();
}

void NPUGuardImpl::destroyEvent(void* event, const c10::DeviceIndex device_index) const noexcept {
  (void)device_index;
  if (event != nullptr) {
    NPU_CHECK_ACL_WARN(aclrtDestroyEvent(static_cast<aclrtEvent>(event)));
  }
}

void NPUGuardImpl::record(void** event, const c10::Stream& stream, const c10::DeviceIndex device_index,
                          const c10::EventFlag flag) const {
  TORCH_CHECK(device_index == -1 || device_index == stream.device_index(), "Event device index ",
              static_cast<int>(device_index), " does not match recording stream's device index ",
              static_cast<int>(stream.device_index()), ".");
  const NPUStream npu_stream(stream);
  NPUGuard guard(npu_stream.device_index());
  if (*event == nullptr) {
    aclrtEvent created = nullptr;
    // c10: PYTORCH_DEFAULT disables timing, BACKEND_DEFAULT enables it.
    const uint32_t acl_flag =
        flag == c10::EventFlag::BACKEND_DEFAULT ? (ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE) : ACL_EVENT_SYNC;
    NPU_CHECK_ACL(aclrtCreateEventWithFlag(&created, acl_flag));
    *event = created;
  }
  NPU_CHECK_ACL(aclrtRecordEvent(static_cast<aclrtEvent>(*event), npu_stream.stream()));
}

void NPUGuardImpl::block(void* event, const c10::Stream& stream) const {
  if (event == nullptr) {
    return;  // never recorded: nothing to wait for
  }
  const NPUStream npu_stream(stream);
  NPU_CHECK_ACL(aclrtStreamWaitEvent(npu_stream.stream(), static_cast<aclrtEvent>(event)));
}

bool NPUGuardImpl::queryEvent(void* event) const {
  if (event == nullptr) {
    return true;
  }
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  NPU_CHECK_ACL(aclrtQueryEventStatus(static_cast<aclrtEvent>(event), &status));
  return status == ACL_EVENT_RECORDED_STATUS_COMPLETE;
}

void NPUGuardImpl::synchronizeEvent(void* event) const {
  if (event != nullptr) {
    NPU_CHECK_ACL(aclrtSynchronizeEvent(static_cast<aclrtEvent>(event)));
  }
}

double NPUGuardImpl::elapsedTime(void* start_event, void* end_event, const c10::DeviceIndex device_index) const {
  (void)device_index;
  TORCH_CHECK(start_event != nullptr && end_event != nullptr,
              "elapsedTime: both events must be recorded before measuring elapsed time.");
  float ms = 0.0f;
  NPU_CHECK_ACL(aclrtEventElapsedTime(&ms, static_cast<aclrtEvent>(start_event), static_cast<aclrtEvent>(end_event)));
  return static_cast<double>(ms);
}

bool NPUGuardImpl::queryStream(const c10::Stream& stream) const {
  return NPUStream(stream).query();
}

void NPUGuardImpl::synchronizeStream(const c10::Stream& stream) const {
  NPUStream(stream).synchronize();
}

void NPUGuardImpl::synchronizeDevice(const c10::DeviceIndex device_index) const {
  synchronize_device(device_index);
}

void NPUGuardImpl::recordDataPtrOnStream(const c10::DataPtr& data_ptr, const c10::Stream& stream) const {
  NPUCachingAllocator::recordStream(data_ptr, NPUStream(stream));
}

C10_REGISTER_GUARD_IMPL(PrivateUse1, NPUGuardImpl);

}  // namespace c10_npu::impl
