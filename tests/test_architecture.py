"""One direction of flow (docs/architecture.md): no import runs up the stack of layers, none closes a circle,
none takes another package's private name or private module.

Every import counts, the ones inside functions too: a lazy import from a
lower layer to a higher one is still the lower layer depending on the higher.
"""

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: the layers from the ground up; a module belongs to the longest prefix that names it
LAYERS = (
    ("labyrinth/errors.py", "labyrinth/files.py", "labyrinth/compiling.py", "labyrinth/_jitcache.py",
     "labyrinth/__init__.py"),
    ("labyrinth/jobs/",),
    ("labyrinth/core/",),
    ("labyrinth/engine/",),
    ("oracle/",),
    ("labyrinth/rules/", "labyrinth/puzzles/"),
    ("verify/", "labyrinth/engine_protocol/"),
    ("labyrinth/view/",),
    ("labyrinth/cli/",),
)


def _layer(path):
    best, rank = "", None
    for i, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if path.startswith(prefix) and len(prefix) > len(best):
                best, rank = prefix, i
    return rank


def _modules():
    """Module name -> path relative to the root, for every source file of the packages."""
    out = {}
    for top in ("labyrinth", "oracle", "verify"):
        for path in (ROOT / top).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            name = rel[:-3].replace("/", ".")
            out[name.removesuffix(".__init__")] = rel
    return out


def _imports(rel, modules, root=ROOT):
    """The project modules ``rel`` imports (at the top or inside functions)."""
    tree = ast.parse((root / rel).read_text(), rel)
    package = rel[:-3].replace("/", ".").rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            names = [f"{base}.{a.name}" for a in node.names] + [base]
        else:
            continue
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and modules[name] != rel:
                found.add(modules[name])
    return found


@pytest.fixture(scope="module")
def graph():
    modules = _modules()
    return {rel: _imports(rel, modules) for rel in modules.values()}


def test_every_module_has_a_layer(graph):
    assert [rel for rel in graph if _layer(rel) is None] == []


def test_no_import_runs_up_the_stack(graph):
    upward = sorted(f"{a} -> {b}" for a, targets in graph.items() for b in targets if _layer(b) > _layer(a))
    assert upward == [], "\n".join(upward)


def _package_face(rel):
    """A package's ``__init__.py`` only hands names on; its imports of its own modules are no dependency."""
    return rel.endswith("__init__.py")


def test_no_import_circle(graph):
    """Tarjan's strongly connected components of the module graph: each must be one module."""
    edges = {a: {b for b in targets if not _package_face(b)} for a, targets in graph.items()}
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    assert circles == []


def test_no_module_is_longer_than_500_lines(graph):
    long = sorted(f"{rel}: {n}" for rel in graph if (n := len((ROOT / rel).read_text().splitlines())) > 500)
    assert long == []


def test_the_check_sees_an_upward_import(tmp_path):
    """The checker itself: a lazy import from the core up to the verifier is found."""
    rel = "labyrinth/core/graph.py"
    source = (ROOT / rel).read_text() + "\n\ndef _late():\n    from verify import audit\n"
    tree_path = tmp_path / rel
    tree_path.parent.mkdir(parents=True)
    tree_path.write_text(source)
    modules = _modules()
    found = _imports(rel, modules, tmp_path)
    assert "verify/audit.py" in found and _layer("verify/audit.py") > _layer(rel)


def _private_imports(rel, modules, root=ROOT):
    """``(importer, module, name)`` for every private name ``rel`` imports from a module of another package.

    A private name is one with a leading underscore that is not a module of its own (a private module is
    :func:`_private_modules`' concern); the package is the folder a module lives in.
    """
    tree = ast.parse((root / rel).read_text(), rel)
    here = rel.rsplit("/", 1)[0]
    package = rel[:-3].replace("/", ".").rsplit(".", 1)[0]
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = node.module or ""
        if node.level:
            base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
        source = modules.get(base)
        if source is None:
            continue
        there = source.rsplit("/", 1)[0]  # a package's __init__.py lives in the package's folder too
        for alias in node.names:
            name = alias.name
            if name.startswith("_") and not name.startswith("__") and f"{base}.{name}" not in modules \
                    and there != here:
                found.append(f"{rel}: from {base} import {name}")
    return found


def test_no_module_imports_another_packages_private_name():
    modules = _modules()
    crossing = sorted(x for rel in modules.values() for x in _private_imports(rel, modules))
    assert crossing == [], "\n".join(crossing)


def test_the_check_sees_a_private_name_crossing_packages(tmp_path):
    """The checker itself: a lazy import of another package's private helper is found; its own package's is not."""
    rel = "labyrinth/cli/_check.py"
    source = ((ROOT / rel).read_text() + "\n\ndef _late():\n    from oracle.registry import _hidden\n"
              "    from labyrinth.cli._common import _one_line\n")
    tree_path = tmp_path / rel
    tree_path.parent.mkdir(parents=True)
    tree_path.write_text(source)
    assert _private_imports(rel, _modules(), tmp_path) == [f"{rel}: from oracle.registry import _hidden"]


def _private_modules(rel, modules, root=ROOT):
    """``importer: module`` for every private module of another package that ``rel`` imports.

    A private module is one whose file, or a folder on its path, starts with an underscore
    (``labyrinth/rules/_lines.py``); what another package needs lives in a public module (with a
    docstring and ``__all__``: ``labyrinth/engine/graph.py``, ``labyrinth/core/search.py``), or a
    public module hands it on. The package is the folder a module lives in.
    """
    here = rel.rsplit("/", 1)[0]
    found = []
    for target in sorted(_imports(rel, modules, root)):
        parts = target.removesuffix(".py").split("/")
        private = any(p.startswith("_") and not p.startswith("__") for p in parts)
        if private and target.rsplit("/", 1)[0] != here:
            found.append(f"{rel}: {target}")
    return found


def test_no_module_imports_another_packages_private_module(graph):
    modules = _modules()
    crossing = sorted(x for rel in graph for x in _private_modules(rel, modules))
    assert crossing == [], "\n".join(crossing)


def test_the_check_sees_a_private_module_crossing_packages(tmp_path):
    """The checker itself: lazy imports of another package's private module are found, however they are
    written; its own package's private modules and another package's public ones are not."""
    rel = "labyrinth/cli/_check.py"
    source = ((ROOT / rel).read_text() + "\n\ndef _late():\n    from labyrinth.rules import _lines\n"
              "    from labyrinth.rules._moves import asked_moves\n    import labyrinth.core._count_kernel\n"
              "    from labyrinth.cli import _common\n    from labyrinth.engine.graph import PASS\n")
    tree_path = tmp_path / rel
    tree_path.parent.mkdir(parents=True)
    tree_path.write_text(source)
    assert _private_modules(rel, _modules(), tmp_path) == [
        f"{rel}: labyrinth/core/_count_kernel.py", f"{rel}: labyrinth/rules/_lines.py",
        f"{rel}: labyrinth/rules/_moves.py"]


#: every extension point and its commented template (docs/architecture.md, "Adding things")
TEMPLATES = {"rule": "labyrinth/rules/template.py", "backend": "oracle/template.py",
             "puzzle": "labyrinth/puzzles/template.py"}


@pytest.mark.parametrize("point", sorted(TEMPLATES))
def test_every_extension_point_has_a_template_the_docs_name(point):
    rel = TEMPLATES[point]
    text = (ROOT / rel).read_text()
    assert text.startswith('"""TEMPLATE: ') and "Adding things" in text
    assert f"template `{rel}`" in (ROOT / "docs" / "architecture.md").read_text()
    importlib.import_module(rel[:-3].replace("/", "."))


#: a function taking this many parameters or more is a decision docs/architecture.md names ("Flat for numba")
LONG = 15


def _long_parameter_lists(rels, root=ROOT):
    """``path:function (k)`` for every function of ``rels`` taking ``LONG`` parameters or more."""
    found = []
    for rel in rels:
        for node in ast.walk(ast.parse((root / rel).read_text(), rel)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                k = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
                if k >= LONG:
                    found.append((rel, node.name, k))
    return found


def _named_in_docs(rel, name, k, docs):
    """Whether ``docs`` names ``name`` (k) after ``rel`` and before the next path it names."""
    paths = re.compile(r"`(?:labyrinth|oracle|verify)/[^`]*`")
    for found in re.finditer(re.escape(f"`{rel}`"), docs):
        after = docs[found.end():]
        nxt = paths.search(after)
        if f"`{name}` ({k})" in (after[:nxt.start()] if nxt else after):
            return True
    return False


def test_every_long_parameter_list_is_a_decision_the_docs_name():
    docs = " ".join((ROOT / "docs" / "architecture.md").read_text().split())
    missing = [f"{rel}:{name} ({k})" for rel, name, k in _long_parameter_lists(sorted(_modules().values()))
               if not _named_in_docs(rel, name, k, docs)]
    assert not missing, "long parameter lists docs/architecture.md does not name: " + ", ".join(missing)


def test_the_check_sees_a_new_long_parameter_list(tmp_path):
    rel = "labyrinth/rules/_toy.py"
    (tmp_path / "labyrinth" / "rules").mkdir(parents=True)
    (tmp_path / rel).write_text("def kernel(" + ", ".join(f"a{i}" for i in range(LONG)) + "):\n    pass\n"
                                "def short(a, b):\n    pass\n")
    assert _long_parameter_lists([rel], tmp_path) == [(rel, "kernel", LONG)]
    assert _named_in_docs(rel, "kernel", LONG, f"`{rel}` `other` (16) and `kernel` ({LONG})")
    assert not _named_in_docs(rel, "kernel", LONG, f"`{rel}` `kernel` (14)")
    assert not _named_in_docs(rel, "kernel", LONG, f"`{rel}` `other` (16); `oracle/x.py` `kernel` ({LONG})")
