# An operator test in upstream torch_npu's idioms: run as a script, as upstream runs its tests
# (`python test_elementwise_ops.py -v`); tests/test_torch_npu_testing.py does so in a subprocess.
import numpy as np
import torch
import torch_npu
from torch_npu.testing.common_utils import (
    SkipIfNotGteCANNVersion,
    SupportedDevices,
    check_operators_in_prof,
    create_common_tensor,
    create_dtype_tensor,
    test_2args_broadcast,
)
from torch_npu.testing.decorator import Dtypes, Formats, instantiate_tests
from torch_npu.testing.testcase import TestCase, run_tests


@instantiate_tests
class TestAdd(TestCase):
    def cpu_op_exec(self, input1, input2):
        return torch.add(input1, input2).numpy()

    def npu_op_exec(self, input1, input2):
        return torch.add(input1, input2).to("cpu").numpy()

    def test_add_shape_format(self):
        shape_format = [
            [np.float32, -1, (4, 3)],
            [np.float32, 0, (2, 16, 3, 3)],
            [np.float32, 3, (2, 16, 3, 3)],
            [np.float32, 29, (32, 17)],
            [np.float16, 29, (18, 16)],
            [np.int32, -1, (5, 7)],
        ]
        for item in shape_format:
            cpu_input1, npu_input1 = create_common_tensor(item, -10, 10)
            cpu_input2, npu_input2 = create_common_tensor(item, -10, 10)
            if item[1] != -1:
                self.assertEqual(torch_npu.get_npu_format(npu_input1), item[1])
            self.assertRtolEqual(self.cpu_op_exec(cpu_input1, cpu_input2), self.npu_op_exec(npu_input1, npu_input2))

    @Dtypes(torch.float, torch.half, torch.int, torch.bfloat16)
    def test_add_dtype(self, dtype):
        cpu_input1, npu_input1 = create_dtype_tensor((2, 3, 4, 5), dtype)
        cpu_input2, npu_input2 = create_dtype_tensor((2, 3, 4, 5), dtype)
        self.assertEqual(npu_input1.dtype, dtype)
        self.assertRtolEqual(torch.add(cpu_input1, cpu_input2), torch.add(npu_input1, npu_input2).cpu())

    def test_add_broadcast(self):
        for cpu_output, npu_output in test_2args_broadcast(torch.add):
            self.assertRtolEqual(cpu_output, npu_output)

    def test_add_alpha_scalar(self):
        cpu_input, npu_input = create_common_tensor([np.float32, -1, (3, 5)], 0, 1)
        self.assertRtolEqual(torch.add(cpu_input, 2.5, alpha=2), torch.add(npu_input, 2.5, alpha=2).cpu())


@instantiate_tests
class TestMulAbs(TestCase):
    @Dtypes(torch.float, torch.half)
    @Formats(2, 29)
    def test_mul_format(self, device, dtype, npu_format):
        self.assertEqual(device, "npu")
        cpu_input1, npu_input1 = create_dtype_tensor((16, 32), dtype, npu_format=npu_format)
        cpu_input2, npu_input2 = create_dtype_tensor((16, 32), dtype, npu_format=npu_format)
        self.assertEqual(torch_npu.get_npu_format(npu_input1), npu_format)
        cpu_output = torch.mul(cpu_input1.float(), cpu_input2.float()).to(dtype)
        self.assertRtolEqual(cpu_output, torch.mul(npu_input1, npu_input2).cpu())

    @Dtypes(torch.float, torch.int)
    def test_abs(self, device, dtype):
        cpu_input = torch.tensor([-3, -1, 0, 2, 5], dtype=dtype)
        npu_input = cpu_input.to(device)
        self.assertRtolEqual(torch.abs(cpu_input), torch.abs(npu_input).cpu())

    @SupportedDevices(["Ascend910B"])
    @Dtypes(torch.float, torch.half)
    def test_neg_on_910b(self, dtype):
        cpu_input, npu_input = create_dtype_tensor((3, 7), dtype)
        self.assertRtolEqual(torch.neg(cpu_input), torch.neg(npu_input).cpu())

    def test_sum_with_precision(self):
        self.precision = 1e-3
        cpu_input, npu_input = create_common_tensor([np.float32, -1, (64, 33)], -1, 1)
        self.assertEqual(torch.sum(cpu_input), torch.sum(npu_input).cpu())
        self.assertEqual(torch.sum(cpu_input, dim=1), torch.sum(npu_input, dim=1), prec=1e-4)


class TestDevicesAndVersions(TestCase):
    @SupportedDevices(["Ascend910B"])
    def test_sub_on_910b(self):
        cpu_input1, npu_input1 = create_common_tensor([np.float32, -1, (8, 8)], -1, 1)
        cpu_input2, npu_input2 = create_common_tensor([np.float32, -1, (8, 8)], -1, 1)
        self.assertRtolEqual(torch.sub(cpu_input1, cpu_input2), torch.sub(npu_input1, npu_input2).cpu())

    @SupportedDevices(["Ascend310P", "Ascend910_93"])
    def test_only_on_other_socs(self):
        self.fail("ran on a device it does not support")

    @SkipIfNotGteCANNVersion("8.1.RC1")
    def test_div_on_any_reporting_cann(self):
        cpu_input1, npu_input1 = create_dtype_tensor((4, 6), torch.float)
        cpu_input2, npu_input2 = create_dtype_tensor((4, 6), torch.float, no_zero=True)
        self.assertRtolEqual(torch.div(cpu_input1, cpu_input2), torch.div(npu_input1, npu_input2).cpu())

    @SkipIfNotGteCANNVersion("9.0.0")
    def test_maximum_on_cann_9(self):
        cpu_input1, npu_input1 = create_common_tensor([np.float32, -1, (5, 5)], -1, 1)
        cpu_input2, npu_input2 = create_common_tensor([np.float32, -1, (5, 5)], -1, 1)
        self.assertRtolEqual(torch.maximum(cpu_input1, cpu_input2), torch.maximum(npu_input1, npu_input2).cpu())


class TestProfiledOperators(TestCase):
    def test_add_shows_in_the_profile(self):
        cpu_input1, npu_input1 = create_common_tensor([np.float32, -1, (4, 4)], -1, 1)
        cpu_input2, npu_input2 = create_common_tensor([np.float32, -1, (4, 4)], -1, 1)
        with torch.autograd.profiler.profile(use_device="npu") as prof:
            npu_output = torch.add(npu_input1, npu_input2)
        self.assertEqual(check_operators_in_prof(["add.Tensor"], prof), True, "Error operators called!")
        self.assertEqual(check_operators_in_prof(["npu::add.Tensor"], prof, ["npu::mul.Tensor"]), True)
        self.assertEqual(check_operators_in_prof(["mul.Tensor"], prof), False)
        self.assertEqual(check_operators_in_prof(["add.Tensor"], prof, ["add.Tensor"]), False)
        self.assertRtolEqual(torch.add(cpu_input1, cpu_input2), npu_output.cpu())


if __name__ == "__main__":
    run_tests()
