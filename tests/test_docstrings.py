"""One docstring style (docs/architecture.md): numpydoc sections, never Google's ``Args:`` nor Sphinx's ``:param``.

Every public function, method and class of the packages (read with :mod:`ast`,
nothing imported) is checked: a section is a title underlined with dashes
(``Parameters`` / ``----------``).
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("labyrinth", "oracle", "verify")

#: Google-style section lines (``Args:``, ``Returns:`` ...) and Sphinx fields (``:param x:``, ``:returns:`` ...)
GOOGLE = re.compile(r"^\s*(Args|Arguments|Returns|Yields|Raises|Attributes|Examples?|Notes?|Parameters|Keyword Args)"
                    r":\s*$")
SPHINX = re.compile(r"^\s*:(param|type|returns?|rtype|raises?|yields?|ivar|cvar|var)\b[^:]*:")
#: numpydoc section titles: each is underlined with as many dashes
SECTIONS = ("Parameters", "Returns", "Yields", "Raises", "Warns", "Attributes", "Methods", "See Also", "Notes",
            "References", "Examples", "Other Parameters")


def styled_lines(doc):
    """The lines of ``doc`` in another style than numpydoc: Google or Sphinx, or a section title not underlined."""
    lines = doc.splitlines()
    bad = [line for line in lines if GOOGLE.match(line) or SPHINX.match(line)]
    for i, line in enumerate(lines):
        if line.strip() in SECTIONS:
            under = lines[i + 1].strip() if i + 1 < len(lines) else ""
            if set(under) != {"-"} or len(under) != len(line.strip()):
                bad.append(f"{line.strip()} (not underlined with {len(line.strip())} dashes)")
    return bad


def _public(tree):
    """Public functions and classes of a module, and the public methods of its public classes."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
            yield node
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and not item.name.startswith("_"):
                        yield item


def offending():
    """``path:line name: the line`` for every docstring line of another style."""
    bad = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in _public(tree):
                doc = ast.get_docstring(node, clean=True) or ""
                for line in styled_lines(doc):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {line.strip()}")
    return bad


def test_docstrings_use_numpydoc_sections():
    assert offending() == []


def test_the_check_sees_other_styles():
    google = ast.parse('def f(x):\n    """Do.\n\n    Args:\n        x: a number.\n    """\n')
    sphinx = ast.parse('def g(x):\n    """Do.\n\n    :param x: a number.\n    """\n')
    numpy = ast.parse('def h(x):\n    """Do.\n\n    Parameters\n    ----------\n    x : int\n    """\n')
    bare = ast.parse('def k(x):\n    """Do.\n\n    Returns\n    the sum.\n    """\n')
    for tree, styled in ((google, True), (sphinx, True), (numpy, False), (bare, True)):
        doc = ast.get_docstring(next(_public(tree)))
        assert bool(styled_lines(doc)) == styled
