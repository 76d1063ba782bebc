"""Command line: ``python -m opplugin_codegen generate ...`` / ``opplugin-codegen ...``.

Exit codes: 0 success, 1 invalid input (every problem printed as file:line: op: what),
2 usage error.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__
from .errors import CodegenError
from .rendered import DEFAULT_SHARDS, Rendered, cached_render

if TYPE_CHECKING:
    from .model import Model

# The generator itself (loader, renderers, schema checks) is imported when a command needs
# it: writing a tree rendered before from the same inputs needs none of it.

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3  # a bug of the generator, never a problem of the input


def load_model(yaml_dir: Path) -> Model:
    from .loader import load_model as load

    return load(yaml_dir)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="opplugin-codegen",
        description="Generate the op_plugin interface layer (declarations, dual-path "
        "dispatch, gen_opapi kernels, Meta functions, projection, derivatives) of one or all "
        "version labels from yaml/op_plugin_functions.yaml (see docs/contracts.md), or the "
        "support matrix. Output is deterministic; unchanged files keep their mtime.",
        epilog="exit status: 0 success, 1 invalid YAML (each problem printed as "
        "file:line: op: what is wrong), 2 usage error, 3 internal error (a bug of the "
        "generator: the traceback is printed)",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    gen = sub.add_parser(
        "generate",
        help="validate the YAML and write build/generated/<label>/...",
        description="Validate the YAML (every label), then write the files of one label "
        "(--label) or of all labels (--all-labels). Nothing is written when "
        "the YAML is invalid.",
    )
    gen.add_argument(
        "--yaml-dir",
        type=Path,
        default=Path("yaml"),
        help="directory with versions.yaml, op_plugin_functions.yaml and the optional "
        "derivatives.yaml, deprecated.yaml (default: yaml)",
    )
    which = gen.add_mutually_exclusive_group()
    which.add_argument(
        "--label", help="version label, e.g. v2.13 (default: the registry's default label)"
    )
    which.add_argument(
        "--all-labels",
        action="store_true",
        help="every label of versions.yaml, into OUT_ROOT/<label>",
    )
    gen.add_argument(
        "--out", type=Path, help="output directory of --label (default: OUT_ROOT/<label>)"
    )
    gen.add_argument(
        "--out-root",
        type=Path,
        default=Path("build/generated"),
        help="root of the per-label output directories (default: build/generated)",
    )
    gen.add_argument(
        "--shards",
        type=_positive,
        default=DEFAULT_SHARDS,
        help=f"number of OpInterface_<k>.cpp / StructKernelNpuOpApi_<k>.cpp / "
        f"MetaFunctions_<k>.cpp / MetaCheckFunctions_<k>.cpp shards (default: {DEFAULT_SHARDS})",
    )
    gen.add_argument("--check", action="store_true", help="validate only; write nothing")
    gen.add_argument("-q", "--quiet", action="store_true", help="print errors only")

    chk = sub.add_parser("check", help="validate the YAML for every label; write nothing")
    chk.add_argument("--yaml-dir", type=Path, default=Path("yaml"))

    matrix = sub.add_parser(
        "matrix",
        help="write support_matrix.md and support_matrix.json (operator x label x path)",
        description="Validate the YAML, then write the support matrix of every label: "
        "support_matrix.md (a table per operator, one column per label) and "
        "support_matrix.json (the same facts). Files are rewritten only when they change.",
    )
    matrix.add_argument("--yaml-dir", type=Path, default=Path("yaml"))
    matrix.add_argument(
        "--out", type=Path, default=Path("build/generated"), help="output directory"
    )
    matrix.add_argument(
        "--proven",
        type=Path,
        default=None,
        help="JSON list of the labels' last test runs (docs/proven-labels.json), shown per label",
    )
    matrix.add_argument("-q", "--quiet", action="store_true", help="print errors only")

    drift = sub.add_parser(
        "check-schemas",
        help="compare each aten entry's func with native_functions.yaml of the labels in its range",
        description="Schema drift: for every aten entry (official, quant, aten backward entries) "
        "and "
        "every checked label in its range, compare the YAML's func with that torch release's "
        "native_functions.yaml. Reports each wrong range with the labels where the schema differs "
        "and the split of the entry that fixes it. Releases come from --cache-dir (<label>.yaml, "
        "filled by `cache-schemas` in each label's environment) or --native-functions.",
        epilog="exit status: 0 no drift, 1 drift found (or unreadable input), 2 usage error",
    )
    drift.add_argument("--yaml-dir", type=Path, default=Path("yaml"))
    drift.add_argument(
        "--label",
        action="append",
        default=[],
        help="a label to check (repeatable; default: every label with a file)",
    )
    drift.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="directory of <label>.yaml copies of native_functions.yaml (build/native_functions)",
    )
    drift.add_argument(
        "--native-functions",
        action="append",
        default=[],
        metavar="LABEL=PATH",
        help="the native_functions.yaml of LABEL's torch release (repeatable; before the cache)",
    )

    cache = sub.add_parser(
        "cache-schemas",
        help="copy this interpreter's torchgen native_functions.yaml into the schema cache",
        description="Copy torchgen/packaged/ATen/native/native_functions.yaml of the installed "
        "torch (not imported) to CACHE_DIR/<label>.yaml, where <label> is the registry label of "
        "that torch; written only when it changed. With --wheel, read it out of a torch wheel "
        "instead (nothing is installed).",
    )
    cache.add_argument("--yaml-dir", type=Path, default=Path("yaml"))
    cache.add_argument(
        "--wheel", type=Path, help="a torch wheel to read native_functions.yaml from"
    )
    cache.add_argument("--cache-dir", type=Path, default=Path("build/native_functions"))
    cache.add_argument(
        "--label", help="fail unless the installed torch (or the wheel's) is this label's"
    )
    cache.add_argument("-q", "--quiet", action="store_true", help="print errors only")

    labels = sub.add_parser("labels", help="print the labels of versions.yaml")
    labels.add_argument("--yaml-dir", type=Path, default=Path("yaml"))
    labels.add_argument("--default", action="store_true", help="print the default label only")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: 0 for --help/--version, 2 for usage errors
        return int(e.code) if isinstance(e.code, int) else EXIT_USAGE
    try:
        return _run(parser, args)
    except CodegenError as e:
        print(e.render(), file=sys.stderr)
        return EXIT_INVALID
    except Exception:  # a bug: say so, with the traceback, and never as "invalid input"
        traceback.print_exc()
        print(
            "opplugin-codegen: internal error (a bug of the generator, not a problem of the YAML)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    yaml_dir: Path = args.yaml_dir
    if not yaml_dir.is_dir():
        print(f"opplugin-codegen: error: --yaml-dir {yaml_dir} is not a directory", file=sys.stderr)
        return EXIT_USAGE
    start = time.perf_counter()
    if args.command == "generate" and not args.check and not (args.all_labels and args.out):
        # the same inputs rendered before: no need to load the model
        wanted = ["*"] if args.all_labels else [args.label] if args.label else None
        rendered = cached_render(yaml_dir, wanted, args.shards)
        if rendered is not None:
            return _write_generated(args, rendered, start=start)
    model = load_model(yaml_dir)
    registry = model.registry

    if args.command == "labels":
        print(registry.default if args.default else "\n".join(registry.labels))
        return EXIT_OK
    if args.command == "matrix":
        from .api import write_matrix

        report = write_matrix(model, args.out, args.proven)
        if not args.quiet:
            print(f"{report.out_dir}: {report.summary()}")
        return EXIT_OK
    if args.command == "check-schemas":
        return _check_schemas(args, model)
    if args.command == "cache-schemas":
        if args.label is not None and args.label not in registry:
            message = registry.unknown_label_message(args.label)
            print(f"opplugin-codegen: error: --label: {message}", file=sys.stderr)
            return EXIT_USAGE
        from .schema_drift import store_installed

        label, path, written = store_installed(args.cache_dir, registry, args.label, args.wheel)
        if not args.quiet:
            print(f"{label}: {path} {'written' if written else 'unchanged'}")
        return EXIT_OK
    if args.command == "check" or args.check:
        print(
            f"ok: {len(model.entries)} entries, {len(model.derivatives)} derivatives, "
            f"{len(registry.labels)} labels ({time.perf_counter() - start:.2f} s)"
        )
        return EXIT_OK

    if args.all_labels:
        if args.out is not None:
            print(
                "opplugin-codegen: error: --out names one label's directory; "
                "use --out-root with --all-labels",
                file=sys.stderr,
            )
            return EXIT_USAGE
        labels = list(registry.labels)
    else:
        label = args.label or registry.default
        if label not in registry:
            print(
                f"opplugin-codegen: error: --label: {registry.unknown_label_message(label)}",
                file=sys.stderr,
            )
            return EXIT_USAGE
        labels = [label]

    from .api import render_labels

    return _write_generated(args, render_labels(yaml_dir, model, labels, args.shards), start=start)


def _write_generated(args: argparse.Namespace, rendered: Rendered, *, start: float) -> int:
    if args.out is not None:
        reports = rendered.write(out_dir=args.out)
    else:
        reports = rendered.write(out_root=args.out_root)
    if not args.quiet:
        elapsed = time.perf_counter() - start
        for label, report in zip(rendered.labels, reports):
            print(f"{label}: {report.out_dir}: {report.summary()}")
        print(f"done in {elapsed:.2f} s")
    return EXIT_OK


def _check_schemas(args: argparse.Namespace, model: Model) -> int:
    from .schema_drift import check_schemas, releases_from, summarize

    explicit: dict[str, Path] = {}
    for item in args.native_functions:
        label, sep, path = item.partition("=")
        if not sep or not label or not path:
            print(
                f"opplugin-codegen: error: --native-functions expects LABEL=PATH, got {item!r}",
                file=sys.stderr,
            )
            return EXIT_USAGE
        explicit[label] = Path(path)
    releases = releases_from(model.registry, args.cache_dir, args.label, explicit)
    drifts = check_schemas(model, releases)
    print(summarize(model, releases))
    if not drifts:
        print("no schema drift")
        return EXIT_OK
    for drift in drifts:
        print(drift.diagnostic(), file=sys.stderr)
    entries = "entry" if len(drifts) == 1 else "entries"
    print(f"{len(drifts)} {entries} with a wrong range", file=sys.stderr)
    return EXIT_INVALID


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
