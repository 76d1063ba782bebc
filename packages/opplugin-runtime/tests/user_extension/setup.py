"""Builds the user extension of test_cpp_extension.py with NpuExtension."""

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension

from opplugin_runtime.cpp_extension import NpuExtension

setup(
    name="user_npu_ops",
    ext_modules=[NpuExtension("user_npu_ops", ["scale_ops.cpp"], extra_compile_args=["-O2"])],
    cmdclass={"build_ext": BuildExtension.with_options(use_ninja=True)},
)
