"""Builds the add_custom example against the installed npu runtime, the way a
team builds its own Ascend C operator outside the four packages:

    python setup.py build_ext --inplace

produces two artifacts from the same kernel and host wrapper:
  ascendc_ops.*.so      a pybind11 module:            import ascendc_ops
  libascendc_ops.*.so   a library with TORCH_LIBRARY:  torch.ops.load_library(path)
"""

from opplugin_runtime.cpp_extension import NpuExtension
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension

KERNEL_AND_WRAPPER = ["add_custom.cpp", "ascendc_add.cpp"]
FLAGS = {"cxx": ["-O2", "-Wall", "-Wextra"]}

setup(
    name="ascendc-add-example",
    version="0.1.0",
    ext_modules=[
        NpuExtension("ascendc_ops", KERNEL_AND_WRAPPER + ["pybind_module.cpp"], extra_compile_args=FLAGS),
        NpuExtension("libascendc_ops", KERNEL_AND_WRAPPER + ["register.cpp"], extra_compile_args=FLAGS),
    ],
    cmdclass={"build_ext": BuildExtension.with_options(use_ninja=True)},
)
