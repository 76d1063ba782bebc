#include "npu/observe/OpHook.h"

#include <memory>
#include <mutex>

namespace at_npu::native {
namespace {

struct HookEntry {
  int64_t handle;
  OpPreHookFn pre;
  OpPostHookFn post;
};

// Copy-on-write list: running hooks take a snapshot, so a hook may register or
// remove hooks while it runs.
using HookList = std::vector<HookEntry>;

struct HookRegistry {
  std::mutex mutex;
  std::shared_ptr<const HookList> hooks = std::make_shared<const HookList>();
  int64_t next_handle = 1;
};

HookRegistry& Registry() {
  static auto* registry = new HookRegistry();
  return *registry;
}

std::shared_ptr<const HookList> Snapshot() {
  HookRegistry& registry = Registry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  return registry.hooks;
}

thread_local bool tls_in_hook = false;
// Names of the ops whose pre hook ran and whose post hook is still due (LIFO;
// an op that throws leaves its name behind, below every later entry).
thread_local std::vector<const char*> tls_open_ops;

struct InHookScope {
  InHookScope() { tls_in_hook = true; }
  ~InHookScope() { tls_in_hook = false; }
};

}  // namespace

OpHook& OpHook::GetInstance() {
  static OpHook instance;
  return instance;
}

bool OpHook::InHook() {
  return tls_in_hook;
}

int64_t OpHook::Register(OpPreHookFn pre, OpPostHookFn post) {
  HookRegistry& registry = Registry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto hooks = std::make_shared<HookList>(*registry.hooks);
  const int64_t handle = registry.next_handle++;
  hooks->push_back(HookEntry{handle, std::move(pre), std::move(post)});
  registry.hooks = std::move(hooks);
  env::detail::g_op_hook_enabled.store(true, std::memory_order_relaxed);
  return handle;
}

void OpHook::Remove(int64_t handle) {
  HookRegistry& registry = Registry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto hooks = std::make_shared<HookList>();
  for (const HookEntry& entry : *registry.hooks) {
    if (entry.handle != handle) {
      hooks->push_back(entry);
    }
  }
  env::detail::g_op_hook_enabled.store(!hooks->empty(), std::memory_order_relaxed);
  registry.hooks = std::move(hooks);
}

void OpHook::RunPreHooks(const char* op, const std::vector<c10::IValue>& args) {
  tls_open_ops.push_back(op);
  const auto hooks = Snapshot();
  InHookScope scope;
  for (const HookEntry& entry : *hooks) {
    if (entry.pre) {
      entry.pre(op, args);
    }
  }
}

void OpHook::RunPostHooks(const c10::IValue& result) {
  if (tls_open_ops.empty()) {
    return;  // hooks were registered between this op's pre and post points
  }
  const char* op = tls_open_ops.back();
  tls_open_ops.pop_back();
  const auto hooks = Snapshot();
  InHookScope scope;
  for (const HookEntry& entry : *hooks) {
    if (entry.post) {
      entry.post(op, result);
    }
  }
}

}  // namespace at_npu::native
