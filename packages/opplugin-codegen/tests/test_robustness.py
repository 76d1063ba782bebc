"""Any input, however broken, gets an answer in YAML terms with file:line, quickly, with no
traceback and nothing written: a corpus of mutants of the rich fixture's four files, and
the cases each mutation class stands for."""

from __future__ import annotations

import contextlib
import io
import random
import re
import shutil
import time
from pathlib import Path

import pytest

from opplugin_codegen.api import generate
from opplugin_codegen.cli import EXIT_INTERNAL, EXIT_INVALID, EXIT_OK, main
from opplugin_codegen.errors import CodegenError
from opplugin_codegen_testing import RICH_YAML, make_yaml_dir, snapshot

FILES = ("op_plugin_functions.yaml", "derivatives.yaml", "deprecated.yaml", "versions.yaml")
# One diagnostic line: "rich/<file>:<line>: ..." (the last line counts them).
DIAGNOSTIC = re.compile(
    r"^rich/(op_plugin_functions|derivatives|deprecated|versions)\.yaml:\d+: \S"
)
INTERNAL_NAMES = ("YamlMap", "YamlList", "NoneType", "dict", "Traceback", "Error:")


def _bomb() -> str:
    """Eight anchored lists of nine references to the one before: 9^8 strings once expanded."""
    lines = ['a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for prev, name in zip("abcdefg", "bcdefgh"):
        lines.append(f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]")
    return "\n".join(lines) + "\n"


BOMB = _bomb()


def _lines(text: str) -> list[int]:
    """Byte offsets of line starts."""
    return [0] + [m.end() for m in re.finditer("\n", text)]


def _mutants(seed: int = 20261202) -> list[tuple[str, str, bytes]]:
    """(name, file, new content) for each mutant; deterministic."""
    rng = random.Random(seed)
    sources = {f: (RICH_YAML / f).read_text() for f in FILES}
    out: list[tuple[str, str, bytes]] = []

    def add(kind: str, file: str, data: bytes | str) -> None:
        out.append((f"{kind}-{len(out)}", file, data.encode() if isinstance(data, str) else data))

    for file, text in sources.items():
        starts = _lines(text)
        for _ in range(6):  # syntax: a structural character taken away or added
            pos = rng.randrange(len(text))
            add("syntax-drop", file, text[:pos] + text[pos + 1 :])
            pos = rng.choice(starts)
            add(
                "syntax-insert",
                file,
                text[:pos] + rng.choice(["[", "]", "{", ": :", "  - ", "\t", "'"]) + text[pos:],
            )
        for _ in range(3):  # encoding
            pos = rng.randrange(len(text))
            add(
                "encoding",
                file,
                text[:pos].encode()
                + rng.choice([b"\xff", b"\xc3", b"\xe9t\xe9"])
                + text[pos:].encode(),
            )
            pos = rng.randrange(len(text))
            add(
                "control",
                file,
                text[:pos] + rng.choice(["\x00", "\x01", "\x1b", "\x7f"]) + text[pos:],
            )
        for _ in range(3):  # truncation
            add("truncated", file, text[: rng.randrange(1, len(text))])
        add("empty", file, "")
        add("comment-only", file, "# nothing here\n")
        add("junk", file, bytes(rng.randrange(256) for _ in range(200)))
        add("not-a-mapping", file, "- just\n- a list\n")
        add("scalar", file, "42\n")
        add("alias-bomb", file, text + BOMB)
        add("alias-self", file, "a: &a\n  b: *a\n" + text)
        add("deep", file, text + "z: " + "[" * 40 + "]" * 40 + "\n")
        add(
            "deep-block",
            file,
            text + "".join("  " * i + f"k{i}:\n" for i in range(40)) + "  " * 40 + "v\n",
        )
        add("duplicate-key", file, text.replace("\n", "\n", 1) + text.split("\n", 1)[0] + "\n")
    ops = sources["op_plugin_functions.yaml"]
    values = {  # types and ranges
        "all_version": [
            "5",
            "true",
            "null",
            "{}",
            "[]",
            "[v2.9, v2.1]",
            "v9.9",
            "[v2.1]",
            "'[v2.1, v2.3]'",
            "2.5",
            "v2.1,,v2.2",
            "[newest, v2.3]",
            "~",
            "-1",
            "v2.1, v2.1",
        ],
        "self": ["5", "[self]", "{a: b}", "''"],
        "aclnnAbs": ["5", "'aclnn Abs'", "[aclnnAbs]", "''"],
    }
    for word, replacements in values.items():
        positions = [m.start() for m in re.finditer(re.escape(word), ops)]
        for value in replacements:
            pos = rng.choice(positions)
            add("value", "op_plugin_functions.yaml", ops[:pos] + value + ops[pos + len(word) :])
    keys = [
        "op_api",
        "acl_op",
        "gen_opapi",
        "exec",
        "size",
        "dtype",
        "func",
        "new_params",
        "structured_inherit",
        "official",
        "custom",
        "dispatch",
        "exposed",
        "device_check",
    ]
    for key in keys:  # keys: misspelt, or moved to another level
        for typo in (key[:-1], key + "s", key.upper()):
            if f"{key}:" in ops:
                add("key", "op_plugin_functions.yaml", ops.replace(f"{key}:", f"{typo}:", 1))
        pos = ops.find(f"    {key}:")
        if pos >= 0:
            add("key-level", "op_plugin_functions.yaml", ops[:pos] + "  " + ops[pos:])
    funcs = [m.start() for m in re.finditer(r"func: ", ops)]
    for _ in range(20):  # schemas
        pos = rng.choice(funcs) + len("func: ")
        end = ops.index("\n", pos)
        schema = ops[pos:end]
        broken = rng.choice(
            [
                schema.replace("->", "=>"),
                schema.replace("(", "", 1),
                schema.replace("Tensor", "Tensr", 1),
                schema[: len(schema) // 2],
                schema.replace(")", ", Tensor self)", 1),
            ]
        )
        add("schema", "op_plugin_functions.yaml", ops[:pos] + broken + ops[end:])
    deriv = sources["derivatives.yaml"]
    add(
        "derivative-orphan",
        "derivatives.yaml",
        deriv + "  - name: npu_nowhere(Tensor self) -> Tensor\n    self: grad\n"
        "    version: all_version\n",
    )
    first = deriv[deriv.index("  - name:") :]
    add("derivative-duplicate", "derivatives.yaml", deriv + first)
    return out


MUTANTS = _mutants()


def test_the_corpus_is_large_and_covers_every_file() -> None:
    assert len(MUTANTS) >= 200
    assert {file for _, file, _ in MUTANTS} == set(FILES)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A copy of the rich fixture and a tree generated from it."""
    root = tmp_path_factory.mktemp("corpus")
    out = root / "out"
    assert (
        main(
            [
                "generate",
                "--label",
                "v2.13",
                "--yaml-dir",
                str(RICH_YAML),
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    return root, out


@pytest.mark.parametrize("name,file,data", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_a_mutant_is_answered_in_yaml_terms(
    generated: tuple[Path, Path], name: str, file: str, data: bytes
) -> None:
    root, out = generated
    yaml_dir = root / "rich"
    shutil.rmtree(yaml_dir, ignore_errors=True)
    shutil.copytree(RICH_YAML, yaml_dir)
    (yaml_dir / file).write_bytes(data)
    before = snapshot(out)
    stderr = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
        status = main(
            [
                "generate",
                "--label",
                "v2.13",
                "--yaml-dir",
                str(yaml_dir),
                "--out",
                str(out),
                "--quiet",
            ]
        )
    elapsed = time.perf_counter() - start
    text = stderr.getvalue()
    assert status in (EXIT_OK, EXIT_INVALID), f"{name}: exit {status}\n{text}"
    assert elapsed < 5, f"{name}: {elapsed:.1f} s"
    if status == EXIT_OK:
        return  # a harmless mutation (a truncation at an entry's end, a value that is still valid)
    assert snapshot(out) == before, f"{name}: a rejected run changed the output tree"
    lines = text.splitlines()
    assert lines and re.fullmatch(r"\d+ errors?", lines[-1]), text
    for line in lines[:-1]:
        assert DIAGNOSTIC.match(line), f"{name}: not file:line: {line!r}"
        assert not any(word in line for word in INTERNAL_NAMES), f"{name}: {line!r}"


# -- what the mutation classes stand for, one by one --------------------------------------

GOOD = """\
official:
  - func: abs(Tensor self) -> Tensor
    op_api: all_version
  - func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
    op_api: all_version
"""


def errors_of(tmp_path: Path, files: dict[str, bytes | str]) -> list[str]:
    yaml_dir = make_yaml_dir(tmp_path, GOOD)
    for name, data in files.items():
        (yaml_dir / name).write_bytes(data.encode() if isinstance(data, str) else data)
    with pytest.raises(CodegenError) as error:
        generate("v2.13", yaml_dir, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    return [str(d) for d in error.value.diagnostics]


@pytest.mark.parametrize("file", FILES)
def test_bytes_that_are_not_utf8_are_named_with_their_line(tmp_path: Path, file: str) -> None:
    good = {
        "op_plugin_functions.yaml": GOOD,
        "derivatives.yaml": "backward: []\n",
        "deprecated.yaml": "deprecated: []\n",
        "versions.yaml": (tmp_path / "x").name,
    }
    if file == "versions.yaml":
        text = make_yaml_dir(tmp_path / "v", GOOD).joinpath("versions.yaml").read_bytes()
    else:
        text = good[file].encode()
    second = text.index(b"\n") + 1
    data = text[:second] + b"  # caf\xe9\n" + text[second:]
    assert errors_of(tmp_path, {file: data}) == [
        f"yaml/{file}:2: not UTF-8: byte 0xe9 at column 8 (byte {second + 7} of the file)"
    ]


def test_a_control_character_is_reported_at_its_line(tmp_path: Path) -> None:
    ops = GOOD.replace(
        "    op_api: all_version\n  - func: abs.out",
        "    op_api: all\x1bversion\n  - func: abs.out",
    )
    assert errors_of(tmp_path, {"op_plugin_functions.yaml": ops}) == [
        "yaml/op_plugin_functions.yaml:3: control character U+001B at column 16: "
        "YAML allows only tabs and "
        "line breaks among the control characters"
    ]


@pytest.mark.parametrize("tail,line", [(BOMB, 7), ("a: &a\n  b: *a\n", 7)])
def test_aliases_are_refused_before_they_expand(tmp_path: Path, tail: str, line: int) -> None:
    start = time.perf_counter()
    errors = errors_of(tmp_path, {"op_plugin_functions.yaml": GOOD + tail})
    assert time.perf_counter() - start < 1
    assert errors == [
        f"yaml/op_plugin_functions.yaml:{line}: YAML alias '*a': "
        "aliases and anchors are not supported here; "
        "write the value out"
    ]


def test_nesting_is_bounded(tmp_path: Path) -> None:
    deep = "".join("  " * i + f"k{i}:\n" for i in range(40)) + "  " * 40 + "v\n"
    errors = errors_of(tmp_path, {"op_plugin_functions.yaml": GOOD + deep})
    assert errors == [
        "yaml/op_plugin_functions.yaml:38: mappings and lists nest more than 32 levels deep here"
    ]


@pytest.mark.parametrize(
    "text", ["", "# only a comment\n", "official: []\ncustom: []\n", "autograd:\n  - abs\n"]
)
def test_a_functions_file_without_operators_is_an_error(tmp_path: Path, text: str) -> None:
    errors = errors_of(tmp_path, {"op_plugin_functions.yaml": text})
    assert errors[0].startswith("yaml/op_plugin_functions.yaml:1: declares no operators"), errors


def test_every_error_of_every_file_in_one_run_op_file_first(tmp_path: Path) -> None:
    ops = (
        GOOD
        + "  - func: abs(Tensor self) -> Tensor\n    op_api: all_version\n"
        + "  - func: neg(Tensor self) -> Tensor\n    op_api: v9\n"
    )
    errors = errors_of(
        tmp_path,
        {
            "op_plugin_functions.yaml": ops,
            "deprecated.yaml": "deprecated:\n  - name: abz\n",
            "derivatives.yaml": "backward:\n"
            "  - name: npu_nowhere(Tensor self) -> Tensor\n    self: grad\n"
            "    version: all_version\n",
        },
    )
    files = [e.split(":", 1)[0] for e in errors]
    assert files == ["yaml/op_plugin_functions.yaml"] * 2 + [
        "yaml/derivatives.yaml",
        "yaml/deprecated.yaml",
    ], errors
    # a per-entry error (neg's range) does not hide the cross-entry one (abs declared twice)
    assert any("abs: declared twice" in e for e in errors) and any(
        "neg: op_api: unknown version label" in e for e in errors
    )


def test_derivatives_orphans_and_duplicates_are_errors(tmp_path: Path) -> None:
    formula = "  - name: abs(Tensor self) -> Tensor\n    self: grad * self.sgn()\n    version: {}\n"
    errors = errors_of(
        tmp_path,
        {
            "derivatives.yaml": "backward:\n"
            + formula.format("[v2.1, v2.5]")
            + formula.format("[v2.5, newest]")
            + formula.format("v2.1").replace("abs(", "abss(")
        },
    )
    assert errors == [
        "yaml/derivatives.yaml:5: abs: backward formula given twice for v2.5 "
        "(also at yaml/derivatives.yaml:2); "
        "give the entries disjoint version ranges",
        "yaml/derivatives.yaml:8: abss: backward formula for an op declared neither in "
        "op_plugin_functions.yaml nor in "
        "npu_native_functions.yaml; did you mean 'abs'?",
    ]


def test_a_formula_for_an_op_the_backend_declares_is_no_orphan(tmp_path: Path) -> None:
    yaml_dir = make_yaml_dir(
        tmp_path,
        GOOD,
        derivatives="backward:\n"
        "  - name: _npu_format_cast(Tensor self, int acl_format) -> Tensor\n    self: grad\n"
        "    version: all_version\n",
    )
    (yaml_dir / "npu_native_functions.yaml").write_text(
        "backend: NPU\ncpp_namespace: at_npu::native\nsupported: []\ncustom:\n"
        "  - func: _npu_format_cast(Tensor self, int acl_format) -> Tensor\n"
    )
    generate("v2.13", yaml_dir, tmp_path / "out")


def test_an_internal_error_is_not_reported_as_invalid_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from opplugin_codegen import cli

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(cli, "load_model", broken)
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        status = main(
            ["generate", "--label", "v2.13", "--yaml-dir", str(make_yaml_dir(tmp_path, GOOD))]
        )
    assert status == EXIT_INTERNAL
    assert "Traceback" in stderr.getvalue() and "internal error" in stderr.getvalue()
