// Bounded busy-waiting. On this kind of VM a condition-variable wake-up costs
// 40-50 us, so threads that expect work or a result soon poll for a while
// before they sleep: first with the CPU's pause hint, then yielding the core.
#ifndef ASCENDC_SIM_RUNTIME_SPIN_H
#define ASCENDC_SIM_RUNTIME_SPIN_H

#include <chrono>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace ascendc_sim {

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Polls `ready()` for at most `budget`; pauses for the first `pauseFor`, then
// yields. Returns whether `ready()` became true.
template <typename Pred>
inline bool SpinUntil(Pred ready, std::chrono::microseconds budget,
                      std::chrono::microseconds pauseFor = std::chrono::microseconds(20)) {
  if (ready()) return true;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto yieldFrom = start + pauseFor;
  const auto deadline = start + budget;
  for (unsigned i = 1;; ++i) {
    if (ready()) return true;
    if ((i & 15u) == 0) {
      const auto now = Clock::now();
      if (now >= deadline) return ready();
      if (now >= yieldFrom) {
        std::this_thread::yield();
        continue;
      }
    }
    CpuRelax();
  }
}

}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_RUNTIME_SPIN_H
