"""docs/architecture.md names real things: every file or folder it names exists, and every
``Class.member`` and ``module.name`` it names is defined where it says.

This is what a test can check of the document's sentences; the layers themselves are checked
by test_imports.py, the registry's monopoly on game names by test_game_names.py and
test_table_protocol.py, the felt's by test_web_wager_ids.py.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "croupier"
DOC = ROOT / "docs" / "architecture.md"
CODE = re.compile(r"`([^`\s]+)`")


def named() -> list[str]:
    return CODE.findall(DOC.read_text("utf-8"))


def _path_like(token: str) -> bool:
    return token.endswith((".py", "/", ".md", ".toml")) and "*" not in token


def _exists(token: str) -> bool:
    """A path from the repository's root or the package's, or a file named within the folder
    the sentence is about (``felt.py`` in the bullet on ``craps/``): some file of the package
    whose path ends with it."""
    bare = token.rstrip("/")
    if (ROOT / bare).exists() or (PACKAGE / bare).exists():
        return True
    return any(p.as_posix().endswith("/" + bare) for p in PACKAGE.rglob("*"))


def _classes() -> dict[str, list[ast.ClassDef]]:
    found: dict[str, list[ast.ClassDef]] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(node)
    return found


def _members(cls: ast.ClassDef) -> Iterator[str]:
    for node in cls.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            yield node.target.id
        elif isinstance(node, ast.Assign):
            yield from (t.id for t in node.targets if isinstance(t, ast.Name))


def _module_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _module_file(dotted: str) -> Path | None:
    for base in (PACKAGE, PACKAGE / "service"):
        candidate = base.joinpath(*dotted.replace("/", ".").split(".")).with_suffix(".py")
        if candidate.exists():
            return candidate
    return None


def test_every_file_and_folder_the_document_names_exists() -> None:
    missing = [t for t in named() if _path_like(t) and not _exists(t)]
    assert not missing, f"docs/architecture.md names files that do not exist: {missing}"


def test_every_member_and_function_it_names_is_defined_there() -> None:
    classes = _classes()
    wrong = []
    for token in named():
        head, dot, member = token.rpartition(".")
        if not dot or _path_like(token) or not member.isidentifier() or "(" in token:
            continue
        if head in classes:
            if not any(member in set(_members(c)) for c in classes[head]):
                wrong.append(token)
        elif (module := _module_file(head)) is not None and member not in _module_names(module):
            wrong.append(token)
    assert not wrong, f"docs/architecture.md names what is not defined: {wrong}"


def test_the_checks_find_a_wrong_name() -> None:
    classes = _classes()
    assert "run_batch" in set(_members(classes["Runner"][0]))
    assert "no_such_method" not in set(_members(classes["Runner"][0]))
    assert not _exists("service/actions.py")  # the planner module of an earlier shape
