"""The package's folders follow the flow (README, "Where things live"): a module imports, when it
loads, only from its own stage or an earlier one.  Later stages are reached inside functions only
(a result's ``_repr_html_`` drawing itself), so that the flow reads one way."""

from __future__ import annotations

import ast
from pathlib import Path

import grundy

PACKAGE = Path(grundy.__file__).parent
STAGES = {
    "codes": 0, "errors": 0, "checks": 0, "memory": 0, "files": 0, "interrupts": 0, "value_classes": 0,
    "_version": 0,
    "engine": 1, "sequence": 1, "readings": 2, "rare": 3, "catalogue": 4, "present": 5, "cli": 6,
}  # fmt: skip


def stage(module: str) -> int | None:
    """The stage of ``grundy.X...`` (None for the package itself and ``__main__``)."""
    parts = module.split(".")
    return STAGES.get(parts[1]) if len(parts) > 1 else None


def imports_at_load(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` of every ``grundy`` module ``path`` imports at its top level."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = []
    for node in ast.parse(path.read_text("utf-8")).body:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            names = [f"{base}.{a.name}" for a in node.names] if base == "grundy" else [base]
            out += [(node.lineno, n) for n in names if n.startswith("grundy.")]
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("grundy.")]
    return out


def test_every_module_belongs_to_a_stage():
    tops = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir()
            if (p.suffix == ".py" or (p / "__init__.py").exists()) and p.stem not in ("__init__", "__main__")}
    assert tops == set(STAGES)


def test_no_module_imports_a_later_stage_when_it_loads():
    late = []
    for path in PACKAGE.rglob("*.py"):
        me = stage(".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts))
        if me is None:
            continue
        late += [f"{path.relative_to(PACKAGE)}:{line} imports {m}"
                 for line, m in imports_at_load(path) if (stage(m) or 0) > me]
    assert late == []


def test_the_check_sees_a_late_import(tmp_path):
    bad = tmp_path / "grundy" / "engine" / "x.py"
    bad.parent.mkdir(parents=True)
    bad.write_text("from ..present import notebook\nfrom ..codes import parse\n")
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path / "grundy"
    try:
        assert [m for _, m in imports_at_load(bad)] == ["grundy.present", "grundy.codes"]
    finally:
        PACKAGE = saved
