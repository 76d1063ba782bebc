"""Code written for torch_npu runs here as it is: ``import torch_npu`` loads this backend,
a script in torch_npu's idioms runs with the CPU fallback forbidden, and the two snippets
of the seed document (sections 4 and 5 of ascendc_pytorch_single_op) run verbatim against
examples/ascendc_add built by the seed's CMake route (``find_package(torch_npu)``,
``target_link_libraries(... torch_npu ...)``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "ascendc_add"


def run_python(code: str, cwd: Path | None = None, **env: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=cwd, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NPU_FALLBACK": "error", **env},
    )
    assert result.returncode == 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    return result.stdout


SAME_BACKEND = """
    import torch
    import torch_npu
    import opplugin_runtime
    assert torch_npu.npu is torch.npu is opplugin_runtime.npu
    import torch_npu.npu
    from torch_npu.npu import current_device
    assert current_device() == torch.npu.current_device()
    assert torch_npu._C.__name__ == "torch_npu._C"
    assert set(n for n in dir(opplugin_runtime._C) if not n.startswith("__")) <= set(dir(torch_npu._C))
    assert torch_npu.npu_format_cast is opplugin_runtime.npu_format_cast
    x = torch.ones(2, 3, device="npu")
    print(torch._C._get_privateuse1_backend_name(), (x + x).sum().item())
"""


@pytest.mark.parametrize(
    ("first", "autoload"),
    [("torch_npu", "1"), ("opplugin_runtime", "1"), ("torch_npu", "0"), ("opplugin_runtime", "0")],
    ids=["torch_npu-first", "runtime-first", "torch_npu-first-no-autoload", "runtime-first-no-autoload"],
)
def test_import_torch_npu_is_this_backend(first: str, autoload: str) -> None:
    code = SAME_BACKEND if first == "torch_npu" else SAME_BACKEND.replace(
        "    import torch_npu\n    import opplugin_runtime\n", "    import opplugin_runtime\n    import torch_npu\n")
    assert run_python(code, TORCH_DEVICE_BACKEND_AUTOLOAD=autoload).split() == ["npu", "12.0"]


def test_a_user_can_tell_this_torch_npu_from_upstreams() -> None:
    out = run_python("""
        import importlib.metadata as md
        import torch_npu
        try:
            md.distribution("torch-npu")
            print("torch-npu installed")
        except md.PackageNotFoundError:
            pass
        print(torch_npu.__distribution__, md.packages_distributions()["torch_npu"])
        assert torch_npu.__version__ == md.version("opplugin-runtime").split("+")[0]
    """)
    assert out.split("\n")[0] == "opplugin-runtime ['opplugin-runtime']"


# A script as torch_npu users write them (device strings, .npu(), torch.npu.*, torch_npu.*).
TORCH_NPU_SCRIPT = """
    import torch
    import torch_npu

    torch.npu.set_device("npu:0")
    device = torch.device("npu:0")
    assert torch.npu.is_available() and torch.npu.device_count() >= 1
    torch.manual_seed(0)

    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    reference = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    reference.load_state_dict(model.state_dict())
    model = model.npu()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    reference_optimizer = torch.optim.SGD(reference.parameters(), lr=0.1)
    inputs, targets = torch.randn(24, 16), torch.randint(0, 4, (24,))
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(inputs, targets), batch_size=8,
                                         pin_memory=True)
    for x_host, t_host in loader:
        assert x_host.is_pinned() and t_host.is_pinned()
        for net, opt, x, t in ((model, optimizer, x_host.to(device, non_blocking=True), t_host.npu(non_blocking=True)),
                               (reference, reference_optimizer, x_host, t_host)):
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(net(x), t)
            loss.backward()
            opt.step()
    torch.npu.synchronize()
    for ours, theirs in zip(model.parameters(), reference.parameters()):
        torch.testing.assert_close(ours.cpu(), theirs, rtol=1e-4, atol=1e-5)

    image = torch.randn(2, 16, 4, 4)
    nc1hwc0 = torch_npu.npu_format_cast(image.npu(), 3)
    assert torch_npu.get_npu_format(nc1hwc0) is torch_npu.Format.NC1HWC0 == 3
    torch.testing.assert_close((nc1hwc0 * 2).cpu(), image * 2)
    torch.testing.assert_close(torch_npu.npu_add_relu(image.npu(), image.npu()).cpu(), torch.relu(image + image))
    print("loss", round(loss.item(), 4))
"""


def test_a_torch_npu_style_script_runs_without_the_cpu_fallback(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent(TORCH_NPU_SCRIPT))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                            env={**os.environ, "NPU_FALLBACK": "error"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("loss ")


# The seed's snippets, character for character (section 4, then section 5).
SEED_SECTION_4 = """\
import torch
import torch_npu

torch.ops.load_library("./libascendc_ops.so")
x = torch.rand((8, 2048), dtype=torch.float16)
y = torch.rand_like(x)
actual = torch.ops.ascendc_ops.ascendc_add(x.npu(), y.npu()).cpu()
expected = x + y
torch.testing.assert_close(actual, expected, rtol=1e-3, atol=1e-3)
"""

SEED_SECTION_5 = """\
import torch
import torch_npu
import ascendc_ops

x = torch.rand((8, 2048), device="npu", dtype=torch.float16)
y = torch.rand_like(x)
z = ascendc_ops.ascendc_add(x, y)
"""


def cmake_configure_command(source: Path, build: Path) -> list[str]:
    from opplugin_runtime import cpp_extension

    prefix = ";".join([torch.utils.cmake_prefix_path, cpp_extension.cmake_prefix_path()])
    command = ["cmake", "-S", str(source), "-B", str(build), "-G", "Ninja", f"-DCMAKE_PREFIX_PATH={prefix}",
               f"-DPython3_EXECUTABLE={sys.executable}"]
    if shutil.which("ccache"):
        command.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
    return command


@pytest.fixture(scope="module")
def cmake_build(label: str) -> Path:
    """examples/ascendc_add built with its CMakeLists.txt into build/examples/ascendc_add/<label>/cmake
    (incremental: ninja rebuilds only what changed)."""
    if shutil.which("cmake") is None:
        pytest.fail("cmake is not installed: the project's setup installs it (see README)")
    build = REPO / "build" / "examples" / "ascendc_add" / label / "cmake"
    build.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "TORCH_DEVICE_BACKEND_AUTOLOAD": "0"}
    for command in (cmake_configure_command(EXAMPLE, build), ["cmake", "--build", str(build), "-j", "2"]):
        result = subprocess.run(command, capture_output=True, text=True, env=env)
        assert result.returncode == 0, f"{' '.join(command)}\n{result.stdout}\n{result.stderr}"
        assert "warning:" not in result.stdout + result.stderr, result.stdout + result.stderr
    return build


def test_the_cmake_route_builds_both_artifacts(cmake_build: Path) -> None:
    assert (cmake_build / "libascendc_ops.so").is_file()
    assert list(cmake_build.glob("ascendc_ops.cpython-*.so"))


def test_seed_section_4_runs_verbatim(cmake_build: Path) -> None:
    (cmake_build / "seed_section_4.py").write_text(SEED_SECTION_4)
    result = subprocess.run([sys.executable, "seed_section_4.py"], cwd=cmake_build, capture_output=True,
                            text=True, timeout=300, env={**os.environ, "NPU_FALLBACK": "error"})
    assert result.returncode == 0, result.stderr


def test_seed_section_5_runs_verbatim(cmake_build: Path) -> None:
    (cmake_build / "seed_section_5.py").write_text(SEED_SECTION_5)
    # The snippet checks nothing itself: run it unchanged, then compare its z with CPU.
    out = run_python("""
        import runpy, torch
        seed = runpy.run_path("seed_section_5.py")
        x, y, z = (seed[name] for name in ("x", "y", "z"))
        assert z.device.type == "npu" and z.dtype == torch.float16
        torch.testing.assert_close(z.cpu(), x.cpu() + y.cpu(), rtol=1e-3, atol=1e-3)
        print("ok")
    """, cwd=cmake_build)
    assert out.strip() == "ok"


def test_the_cmake_package_refuses_another_torch(tmp_path: Path) -> None:
    """A runtime built for one torch release cannot configure an extension against another."""
    from opplugin_runtime import cpp_extension

    (tmp_path / "CMakeLists.txt").write_text(textwrap.dedent("""\
        cmake_minimum_required(VERSION 3.18)
        project(probe LANGUAGES CXX)
        set(Torch_VERSION 1.0.0)
        find_package(torch_npu REQUIRED)
    """))
    result = subprocess.run(["cmake", "-S", str(tmp_path), "-B", str(tmp_path / "b"),
                             f"-DCMAKE_PREFIX_PATH={cpp_extension.cmake_prefix_path()}"],
                            capture_output=True, text=True)
    assert result.returncode != 0
    assert f"this runtime was built for torch {torch.__version__}" in " ".join(result.stderr.split())


def configure_probe(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    from opplugin_runtime import cpp_extension

    (tmp_path / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.18)\nproject(probe LANGUAGES CXX)\n"
                                             + textwrap.dedent(body))
    return subprocess.run(["cmake", "-S", str(tmp_path), "-B", str(tmp_path / "b"),
                           f"-DCMAKE_PREFIX_PATH={cpp_extension.cmake_prefix_path()}"],
                          capture_output=True, text=True)


def test_the_cmake_package_finds_the_torch_next_to_the_runtime(tmp_path: Path) -> None:
    """find_package(torch_npu) alone sets torch's variables for the seed's target_link_libraries,
    also for a CUDA build of torch (torch 2.1.2+cu121), whose own package needs the CUDA toolkit."""
    result = configure_probe(tmp_path, """\
        find_package(torch_npu REQUIRED)
        message(STATUS "probe Torch_VERSION=${Torch_VERSION}")
        message(STATUS "probe TORCH_INSTALL_PREFIX=${TORCH_INSTALL_PREFIX}")
        foreach(dir ${TORCH_INCLUDE_DIRS})
          message(STATUS "probe include=${dir}")
        endforeach()
        if(NOT TORCH_LIBRARIES)
          message(FATAL_ERROR "TORCH_LIBRARIES is empty")
        endif()
    """)
    assert result.returncode == 0, result.stdout + result.stderr
    probe = {}
    for line in result.stdout.splitlines():
        if line.startswith("-- probe "):
            key, _, value = line.removeprefix("-- probe ").partition("=")
            probe.setdefault(key, []).append(value)
    assert torch.__version__.startswith(probe["Torch_VERSION"][0])
    assert Path(probe["TORCH_INSTALL_PREFIX"][0]).resolve() == Path(torch.__file__).parent.resolve()
    assert any((Path(d) / "torch" / "extension.h").is_file() for d in probe["include"]), probe["include"]
    without_package = "using its CPU libraries without torch's CMake package" in " ".join(result.stdout.split())
    # A CUDA build of torch (its package wants the CUDA toolkit) takes the direct route, a CPU build torch's package.
    assert without_package == (torch.version.cuda is not None)
