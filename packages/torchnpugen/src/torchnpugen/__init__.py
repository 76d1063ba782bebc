"""torchnpugen: extends the installed torch's torchgen to emit the NPU backend registration.

Public entry points:

* ``torchnpugen.gen.generate(label=..., yaml_dir=..., out_dir=..., shards=4)``
* ``torchnpugen.patch.apply_torchgen_patch()`` / ``torchnpugen.patch.torchgen_patched()``
* ``python -m torchnpugen generate --label v2.13 --yaml-dir yaml --out build/generated/v2.13``

Submodules import torchgen, so importing this package itself stays cheap.
"""

__version__ = "0.1.0"
