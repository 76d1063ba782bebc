# Comparisons in upstream torch_npu's idioms that are wrong on purpose: every test here must fail.
# tests/test_torch_npu_testing.py runs this file as a script and checks that each one does.
import numpy as np
import torch
from torch_npu.testing.common_utils import check_operators_in_prof, create_common_tensor, create_dtype_tensor
from torch_npu.testing.decorator import Dtypes, instantiate_tests
from torch_npu.testing.testcase import TestCase, run_tests


@instantiate_tests
class TestWrongResults(TestCase):
    @Dtypes(torch.float, torch.half, torch.bfloat16, torch.int)
    def test_add_compared_with_sub(self, dtype):
        cpu_input1, npu_input1 = create_dtype_tensor((4, 5), dtype, no_zero=True)
        cpu_input2, npu_input2 = create_dtype_tensor((4, 5), dtype, no_zero=True)
        self.assertRtolEqual(torch.sub(cpu_input1, cpu_input2), torch.add(npu_input1, npu_input2).cpu())

    def test_one_element_off_in_a_small_tensor(self):
        cpu_input, npu_input = create_common_tensor([np.float32, -1, (3, 3)], 1, 2)
        npu_output = torch.abs(npu_input).cpu()
        npu_output[1, 1] += 0.01
        self.assertRtolEqual(torch.abs(cpu_input), npu_output)

    def test_dtype_differs(self):
        cpu_input, npu_input = create_common_tensor([np.float32, -1, (6,)], 1, 2)
        self.assertRtolEqual(cpu_input.double(), npu_input.cpu())

    def test_shape_differs(self):
        cpu_input, npu_input = create_common_tensor([np.float32, -1, (2, 3)], 1, 2)
        self.assertRtolEqual(cpu_input, npu_input.reshape(3, 2).cpu())

    def test_nan_where_cpu_has_none(self):
        cpu_input, npu_input = create_common_tensor([np.float32, -1, (8,)], 1, 2)
        self.assertRtolEqual(torch.sqrt(cpu_input), torch.sqrt(npu_input - 1.5).cpu())

    def test_assert_equal_beyond_prec(self):
        cpu_input, npu_input = create_common_tensor([np.float32, -1, (16,)], 0, 1)
        self.assertEqual(torch.mul(cpu_input, 1.001), torch.mul(npu_input, 1.0), prec=1e-5)

    def test_expects_an_operator_that_did_not_run(self):
        _, npu_input = create_common_tensor([np.float32, -1, (4,)], 0, 1)
        with torch.autograd.profiler.profile(use_device="npu") as prof:
            torch.abs(npu_input)
        self.assertEqual(check_operators_in_prof(["mul.Tensor"], prof), True, "Error operators called!")


if __name__ == "__main__":
    run_tests()
