"""Write an upstream-sized op-plugin YAML directory for benchmarking opplugin-codegen.

Sizes follow upstream op-plugin at HEAD (shared/reference/opplugin.md): about 1,500 entries
(official ~1,050, custom ~420, symint 29, quant 9, autograd 1), ~400 with gen_opapi, 15
labels, and upstream's mix of ranges (all_version, [x, newest], [x, y], single labels,
comma lists). Official schemas are taken from the installed torch's native_functions.yaml,
so they are real; custom ops are renamed copies (npu_bench_<i>). Entries that the validator
would reject (C++ signature clashes, Dimname ops past v2.12, ...) are dropped, so the result
is a valid input; the script prints what it wrote.

    python bench/make_synthetic_yaml.py --out build/bench/yaml
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packages" / "opplugin-codegen" / "src"))

from opplugin_codegen import CodegenError, load_model  # noqa: E402
from opplugin_codegen.schema import SchemaError, SchemaKind, parse_schema  # noqa: E402

LABELS = [f"v2.{i}" for i in range(1, 16)]
PINS = {
    "v2.1": "2.1.2", "v2.2": "2.2.2", "v2.3": "2.3.1", "v2.4": "2.4.1", "v2.5": "2.5.1",
    "v2.6": "2.6.0", "v2.7": "2.7.1", "v2.8": "2.8.0", "v2.9": "2.9.1", "v2.10": "2.10.0",
    "v2.11": "2.11.0", "v2.12": "2.12.1", "v2.13": "2.13.0", "v2.14": "2.14.1",
    "v2.15": "2.15.0",
}  # fmt: skip

#: (weight, range) for acl_op and op_api, after upstream's counts at HEAD; "{a}" is a label.
ACL_RANGES = [(806, "all_version"), (146, ["{a}", "newest"]), (30, ["v2.1", "v2.12"]), (17, "{a}")]
API_RANGES = [
    (1011, "all_version"),
    (334, ["{a}", "newest"]),
    (29, ["v2.1", "v2.12"]),
    (4, "{a}"),
    (5, "v2.1, v2.2"),
]

#: Path mix per section: (both, op_api only, acl_op only).
PATH_MIX = {"official": (807, 246, 3), "custom": (57, 249, 112)}


def native_functions() -> list[str]:
    spec = importlib.util.find_spec("torchgen")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("make_synthetic_yaml: needs torchgen (comes with torch) for real schemas")
    path = Path(next(iter(spec.submodule_search_locations)))
    path = path / "packaged" / "ATen" / "native" / "native_functions.yaml"
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return [e["func"] for e in yaml.load(path.read_text(), Loader=loader)]


def pick(rng: random.Random, table: list[tuple[int, str | list[str]]]) -> str | list[str]:
    label = rng.choice(LABELS[1:10])
    value = rng.choices([t for _, t in table], weights=[w for w, _ in table])[0]
    if isinstance(value, list):
        return [v.format(a=label) for v in value]
    return value.format(a=label)


def _tensor_arg(schema_text: str) -> str | None:
    schema = parse_schema(schema_text)
    for a in schema.arguments:
        if str(a.type) == "Tensor" and not a.is_out:
            return a.name
    return None


def build(seed: int) -> tuple[dict[str, list[dict[str, object]]], list[dict[str, object]]]:
    rng = random.Random(seed)
    schemas: list[str] = []
    for func in native_functions():
        try:
            parse_schema(func)
        except SchemaError:
            continue
        schemas.append(func)
    by_base: dict[str, dict[str, str]] = defaultdict(dict)
    for func in schemas:
        s = parse_schema(func)
        base = s.name.name.rstrip("_") if s.kind is SchemaKind.inplace else s.name.name
        by_base[base][s.name.full] = func

    official: list[dict[str, object]] = []
    gen_budget = 347
    used: set[str] = set()

    def ranges(entry: dict[str, object], section: str, func: str) -> None:
        both, api_only, acl_only = PATH_MIX[section]
        kind = rng.choices(["both", "api", "acl"], weights=[both, api_only, acl_only])[0]
        dimname = "Dimname" in func
        if kind in ("both", "acl"):
            entry["acl_op"] = ["v2.1", "v2.12"] if dimname else pick(rng, ACL_RANGES)
        if kind in ("both", "api"):
            entry["op_api"] = ["v2.1", "v2.12"] if dimname else pick(rng, API_RANGES)

    # gen_opapi families first: an out= op with a full block, its functional and in-place
    # siblings inheriting it (upstream: 300 name-only exec, 54 explicit, 51 inherit).
    for base in sorted(by_base):
        if gen_budget <= 0:
            break
        family = by_base[base]
        outs = [
            f for f in family.values()
            if parse_schema(f).kind is SchemaKind.out and len(parse_schema(f).out_arguments) == 1
            and "Dimname" not in f and parse_schema(f).name.overload == "out"
        ]  # fmt: skip
        if not outs:
            continue
        out_func = outs[0]
        out_schema = parse_schema(out_func)
        tensor = _tensor_arg(out_func)
        if tensor is None:
            continue
        api = f"aclnn{''.join(p.capitalize() for p in base.split('_'))}"
        op_api: str | list[str] = "all_version" if rng.random() < 0.8 else [rng.choice(LABELS[1:6]), "newest"]
        acl = {"acl_op": "all_version"} if rng.random() < 0.7 else {}
        out_name = out_schema.out_arguments[0].name
        official.append(
            {
                "func": out_func,
                **acl,
                "op_api": op_api,
                "gen_opapi": {
                    out_name: {"size": tensor, "dtype": tensor},
                    "exec": api,
                },
            }
        )
        used.add(out_schema.name.full)
        gen_budget -= 1
        n_args = len(out_schema.arguments) - 1
        for full, func in sorted(family.items()):
            if full in used or gen_budget <= 0:
                continue
            s = parse_schema(func)
            same_args = [str(a) for a in s.arguments] == [str(a) for a in out_schema.arguments if not a.is_out]
            if s.kind is SchemaKind.functional and same_args and len(s.returns) == 1:
                official.append(
                    {"func": func, **acl, "op_api": op_api, "gen_opapi": {"structured_inherit": out_schema.name.full}}
                )
            elif (
                s.kind is SchemaKind.inplace
                and len(s.arguments) == n_args
                and [str(a.type) for a in s.arguments[1:]] == [str(a.type) for a in out_schema.arguments[1:n_args]]
            ):
                official.append(
                    {"func": func, **acl, "op_api": op_api, "gen_opapi": {"structured_inherit": out_schema.name.full}}
                )
            else:
                continue
            used.add(full)
            gen_budget -= 1

    # The rest of the official section: hand-written kernels with upstream's range mix.
    rest = [f for f in schemas if parse_schema(f).name.full not in used]
    rng.shuffle(rest)
    for func in rest[: 1057 - len(official)]:
        entry: dict[str, object] = {"func": func}
        ranges(entry, "official", func)
        if rng.random() < 0.08:
            entry["internal_format_opapi"] = entry.get("op_api", "all_version")
        official.append(entry)

    # Custom ops: renamed copies of native schemas (58 with gen_opapi).
    custom: list[dict[str, object]] = []
    pool = [f for f in schemas if "Dimname" not in f and parse_schema(f).kind
            is SchemaKind.functional]  # fmt: skip
    rng.shuffle(pool)
    for i, func in enumerate(pool[:418]):
        s = parse_schema(func)
        overload = f".{s.name.overload}" if s.name.overload else ""
        renamed = f"npu_bench_{i}{overload}" + func[func.index("(") :]
        entry = {"func": renamed}
        ranges(entry, "custom", renamed)
        tensor = _tensor_arg(renamed)
        returns = s.returns
        if (
            i < 100 and tensor is not None and len(returns) == 1 and str(returns[0].type) == "Tensor"
            and sum(1 for e in custom if "gen_opapi" in e) < 58
        ):  # fmt: skip
            entry["op_api"] = entry.get("op_api", "all_version")
            entry["gen_opapi"] = {"result": {"size": tensor, "dtype": tensor}, "exec": f"aclnnNpuBench{i}"}
        if rng.random() < 0.3:
            entry["exposed"] = entry.get("op_api") or entry.get("acl_op")
        if rng.random() < 0.2 and "op_api" in entry:
            entry["dvm"] = entry["op_api"]
        custom.append(entry)

    symint = [
        {"func": e["func"], "op_api": e.get("op_api", "all_version")}
        for e in official
        if "SymInt" in str(e["func"]) and "gen_opapi" not in e
    ][:29]
    quant = [
        {"func": f"npu_bench_quant_{i}(Tensor self, float scale, int zero_point) -> Tensor",
         "acl_op": ["v2.2", "newest"]}
        for i in range(9)
    ]  # fmt: skip
    autograd = [{"func": custom[0]["func"], "op_api": custom[0].get("op_api", "all_version")}]
    backward = [
        {"name": e["func"], "self": "grad", "version": rng.choice(["all_version", ["v2.3", "newest"]])}
        for e in official[:84]
    ]
    sections = {"official": official, "custom": custom, "symint": symint, "quant": quant,
                "autograd": autograd}  # fmt: skip
    return sections, backward


class _PlainDumper(yaml.SafeDumper):
    """Writes a value shared by several entries out each time: the generator refuses YAML
    aliases (&id001 / *id001), as it must for files of unknown origin."""

    def ignore_aliases(self, data: object) -> bool:
        return True


def _dump(data: object, **kwargs: object) -> str:
    return yaml.dump(data, Dumper=_PlainDumper, **kwargs)


def write(out: Path, sections: dict[str, list[dict[str, object]]], backward: list[dict[str, object]]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    versions = "default: v2.13\nversions:\n" + "".join(f'  {label}: {{torch: "{PINS[label]}"}}\n' for label in LABELS)
    (out / "versions.yaml").write_text(versions)
    doc = {"all_version": LABELS, **sections}
    (out / "op_plugin_functions.yaml").write_text(
        _dump(doc, sort_keys=False, width=4096, default_flow_style=None)
    )
    (out / "derivatives.yaml").write_text(
        _dump({"all_version": LABELS, "backward": backward}, sort_keys=False, width=4096)
    )
    names = sorted({str(e["func"]).split("(")[0] for e in sections["custom"]})[:57]
    deprecated = [{"name": n, **({"replace": f"torch_npu.{n}_v2"} if i % 2 else {})}
                  for i, n in enumerate(names)]  # fmt: skip
    (out / "deprecated.yaml").write_text(_dump({"deprecated": deprecated}, sort_keys=False))


def make_valid(out: Path, seed: int) -> None:
    """Write, validate, drop what the validator rejects, until the input is valid."""
    sections, backward = build(seed)
    for _ in range(10):
        write(out, sections, backward)
        try:
            load_model(out)
            return
        except CodegenError as e:
            bad = {str(d.subject).strip("'") for d in e.diagnostics if d.subject}
            if not bad:
                raise
            for name, items in sections.items():
                sections[name] = [
                    x for x in items
                    if str(x["func"]).split("(")[0] not in bad
                    and not (isinstance(x.get("gen_opapi"), dict)
                             and x["gen_opapi"].get("structured_inherit") in bad)
                ]  # fmt: skip
            backward = [b for b in backward if str(b["name"]).split("(")[0] not in bad]
    sys.exit("make_synthetic_yaml: could not produce a valid input")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "bench" / "yaml")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    make_valid(args.out, args.seed)
    model = load_model(args.out)
    gen = sum(1 for e in model.entries if e.gen_opapi is not None)
    per_section = {s: len(model.section(s)) for s in ("official", "custom", "symint", "quant",
                                                       "autograd")}  # fmt: skip
    print(
        f"{args.out}: {len(model.entries)} entries {per_section}, {gen} with gen_opapi, "
        f"{len(model.registry.labels)} labels, {len(model.derivatives)} derivatives, "
        f"{len(model.deprecations)} deprecations"
    )


if __name__ == "__main__":
    main()
