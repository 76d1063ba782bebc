// The AOTInductor model runner of the npu device: torch's package loader
// (torch._inductor.aoti_load_package, AOTIModelPackageLoader) finds a runner by the
// package's device key, "npu" here. The compiled model queues its kernels on the
// current npu stream itself (NpuLaunchHostKernel).
#include "npu/core/TorchCompat.h"

// torch::inductor::RegisterAOTIModelRunner (the runner registry by device key), checked on torch
// 2.13; on older labels an AOTInductor package of an npu model has no runner.
#define NPU_HAS_AOTI_RUNNER_REGISTRY VERSION_BETWEEN(V2R13, VERSION_NEWEST)

#if NPU_HAS_AOTI_RUNNER_REGISTRY

#include <memory>
#include <string>

#include <c10/core/Device.h>
#include <c10/util/Exception.h>

#include <torch/csrc/inductor/aoti_runner/model_container_runner.h>

namespace {

// The model library's runtime (model_base.h, compiled into every AOTInductor model) accepts only
// the device strings cpu/cuda/xpu/mps: an npu model is created as "cpu" (its host code and
// kernels are host code; its constants live in a host blob, which the generated wrapper copies
// to the npu device on first use).
class AOTIModelContainerRunnerNpu final : public torch::inductor::AOTIModelContainerRunner {
 public:
  AOTIModelContainerRunnerNpu(const std::string& model_so_path, size_t num_models, const std::string& device_str,
                              const std::string& bin_dir, bool run_single_threaded)
      : AOTIModelContainerRunner(model_so_path, num_models, CheckedHostDevice(device_str), bin_dir,
                                 run_single_threaded) {}

 private:
  static std::string CheckedHostDevice(const std::string& device_str) {
    const c10::Device device(device_str);
    TORCH_CHECK(device.type() == c10::DeviceType::PrivateUse1,
                "AOTInductor npu model runner: expected an npu device, got '", device_str, "'");
    return "cpu";
  }
};

std::unique_ptr<torch::inductor::AOTIModelContainerRunner> CreateNpuRunner(const std::string& model_so_path,
                                                                           size_t num_models,
                                                                           const std::string& device_str,
                                                                           const std::string& bin_dir,
                                                                           const bool run_single_threaded) {
  return std::make_unique<AOTIModelContainerRunnerNpu>(model_so_path, num_models, device_str, bin_dir,
                                                       run_single_threaded);
}

const torch::inductor::RegisterAOTIModelRunner register_npu_runner("npu", &CreateNpuRunner);

}  // namespace

#endif  // NPU_HAS_AOTI_RUNNER_REGISTRY
