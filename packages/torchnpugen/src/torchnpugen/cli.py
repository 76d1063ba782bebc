"""Command line: ``python -m torchnpugen generate ...``.

Exit codes: 0 success, 1 invalid input (YAML, label/torch mismatch, torchgen
targets that moved), 2 usage error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import __version__

EXIT_OK = 0
EXIT_INVALID_INPUT = 1
EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m torchnpugen",
        description="Generate the NPU (PrivateUse1) backend registration from the torchgen "
        "of the running interpreter's torch.",
        epilog="Exit codes: 0 ok, 1 invalid input, 2 usage.",
    )
    parser.add_argument("--version", action="version", version=f"torchnpugen {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    gen = commands.add_parser(
        "generate",
        help="write <out>/npu/aten/{NPUNativeFunctions.h,RegisterNPU_<k>.cpp,manifest.json}",
        description="Write <out>/npu/aten/: NPUNativeFunctions.h, RegisterNPU_<k>.cpp shards and "
        "manifest.json. Reads <yaml-dir>/versions.yaml, <yaml-dir>/npu_native_functions.yaml and "
        "the op-plugin projection <out>/op_plugin/config/op_plugin_functions.yaml.",
    )
    gen.add_argument("--label", required=True, help="version label from versions.yaml, e.g. v2.13")
    gen.add_argument("--yaml-dir", required=True, type=Path, help="directory holding the project's YAML (yaml/)")
    gen.add_argument("--out", required=True, type=Path, help="output root for the label, e.g. build/generated/v2.13")
    gen.add_argument("--shards", type=int, default=4, help="number of RegisterNPU_<k>.cpp files (default 4)")
    gen.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")
    commands.add_parser(
        "patches",
        help="verify the torchgen patch table against the installed torchgen and print what each row does",
        description="Verify every row of torchnpugen.patch.TORCHGEN_PATCHES against the installed torchgen "
        "(exit 1 naming the first target that moved) and print target, action on this torch, reason.",
    )
    commands.add_parser(
        "compat",
        help="list the known differences between supported torch releases and which this torch has",
        description="Print every row of torchnpugen.compat.TORCHGEN_DIFFERENCES: its name, the releases "
        "it applies to, what torchnpugen does about it, and whether the installed torchgen shows it "
        "(feature detection).",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: 0 for --help/--version, 2 for usage errors
        return int(e.code or 0)
    if args.command == "patches":
        return _print_patches()
    if args.command == "compat":
        return _print_compat()
    if args.shards < 1:
        print(f"{parser.prog} generate: error: --shards must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    try:
        import torchgen  # noqa: F401  (must be the running interpreter's torch)
    except ImportError:
        print(
            "torchnpugen: error: torchgen is not importable; run with the label's venv, "
            f"e.g. build/venvs/{args.label}/bin/python -m torchnpugen ...",
            file=sys.stderr,
        )
        return EXIT_INVALID_INPUT

    from .errors import InputError, TorchnpugenError
    from .gen import generate

    try:
        result = generate(label=args.label, yaml_dir=args.yaml_dir, out_dir=args.out, shards=args.shards)
    except InputError as e:
        # one line per problem (file:line: op: what), as opplugin-codegen reports them
        for problem in e.problems:
            print(f"torchnpugen: error: {problem}", file=sys.stderr)
        if len(e.problems) > 1:
            print(f"torchnpugen: {len(e.problems)} errors", file=sys.stderr)
        return EXIT_INVALID_INPUT
    except TorchnpugenError as e:
        print(f"torchnpugen: error: {e}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    for note in result.notes:
        print(f"torchnpugen: note: {note}", file=sys.stderr)
    if not args.quiet:
        r = result.report
        print(
            f"torchnpugen: {len(result.ops)} ops -> {result.output_dir} "
            f"({len(r.written)} written, {len(r.unchanged)} unchanged, {len(r.removed)} removed)"
        )
    return EXIT_OK


def _print_patches() -> int:
    from .errors import TorchgenMismatchError
    from .patch import patch_report

    try:
        report = patch_report()
    except TorchgenMismatchError as e:
        print(f"torchnpugen: error: {e}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    for target, action, reason in report:
        print(f"{target}\n  {action}\n  why: {reason}")
    return EXIT_OK


def _print_compat() -> int:
    from .compat import TORCHGEN_DIFFERENCES, detected_differences, torch_version

    here = detected_differences()
    print(f"torch {torch_version()}: {len(here)} of {len(TORCHGEN_DIFFERENCES)} known differences apply")
    for d in TORCHGEN_DIFFERENCES:
        where = "applies" if d in here else "does not apply"
        print(f"{d.name}: {where} here\n  {d.releases}\n  handling: {d.handling}")
    return EXIT_OK
