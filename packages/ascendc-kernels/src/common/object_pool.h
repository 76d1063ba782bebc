// A per-thread free list of recycled objects for the per-call objects of the
// aclnn two-phase APIs (aclTensor, aclOpExecutor): a launch creates and
// destroys a few of them on the calling thread, and reusing them (their
// vectors keep their capacity) saves a dozen heap allocations per op.
//
// Acquire() pops a recycled object (its state is the last user's: the caller
// resets what it sets) or news one; Release() keeps up to kMax per thread and
// deletes the rest. Objects may be released on another thread than the one
// that acquired them, and a pooled object may also be deleted directly.
#ifndef ASCENDC_SIM_COMMON_OBJECT_POOL_H
#define ASCENDC_SIM_COMMON_OBJECT_POOL_H

#include <stddef.h>

namespace ascendc_sim {

template <typename T, size_t kMax = 16>
class ThreadObjectPool {
 public:
  static T* Acquire() {
    if (!tls_dead_) {
      FreeList& list = List();
      if (list.count > 0) return list.items[--list.count];
    }
    return new T();
  }

  static void Release(T* object) {
    if (object == nullptr) return;
    if (!tls_dead_) {
      FreeList& list = List();
      if (list.count < kMax) {
        list.items[list.count++] = object;
        return;
      }
    }
    delete object;
  }

 private:
  struct FreeList {
    T* items[kMax];
    size_t count = 0;
    ~FreeList() {
      tls_dead_ = true;  // objects released during thread exit after this are deleted at once
      while (count > 0) delete items[--count];
    }
  };

  static FreeList& List() {
    thread_local FreeList list;
    return list;
  }

  static thread_local bool tls_dead_;
};

template <typename T, size_t kMax>
thread_local bool ThreadObjectPool<T, kMax>::tls_dead_ = false;

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_COMMON_OBJECT_POOL_H
