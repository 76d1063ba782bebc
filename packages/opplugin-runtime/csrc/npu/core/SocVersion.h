// The device's SoC as torch_npu numbers it (torch.npu.get_soc_version()).
#pragma once

namespace c10_npu {

// CANN's SoC versions with torch_npu's numbers.
enum class SocVersion {
  UnsupportedSocVersion = -1,
  Ascend910PremiumA = 100,
  Ascend910ProA = 101,
  Ascend910A = 102,
  Ascend910ProB = 103,
  Ascend910B = 104,
  Ascend310P1 = 200,
  Ascend310P2 = 201,
  Ascend310P3 = 202,
  Ascend310P4 = 203,
  Ascend310P5 = 204,
  Ascend310P7 = 205,
  Ascend910B1 = 220,
  Ascend910B2 = 221,
  Ascend910B2C = 222,
  Ascend910B3 = 223,
  Ascend910B4 = 224,
  Ascend910B4_1 = 225,
  Ascend310B1 = 240,
  Ascend310B2 = 241,
  Ascend310B3 = 242,
  Ascend310B4 = 243,
  Ascend910_9391 = 250,
  Ascend910_9392 = 251,
  Ascend910_9381 = 252,
  Ascend910_9382 = 253,
  Ascend910_9372 = 254,
  Ascend910_9362 = 255,
  Ascend910_9363 = 256,
  Ascend950 = 260,
};

// The SoC version of the toolkit's SoC name (aclrtGetSocName), read once; an unknown name
// raises, naming it.
SocVersion GetSocVersion();

}  // namespace c10_npu
