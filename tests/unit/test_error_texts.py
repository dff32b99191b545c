"""Every message the code gives an error is Russian (issue 33: the code is English and stable, the message is for
people). Read from the source with ast, so that a new refusal in English fails here wherever it is raised: the
message argument of every domain error (app/services/errors.py and its kinds), ApiError, the input limits'
InvalidInput, flask-jwt-extended's refusals (app/api/access.py), a rate limit's ``error_message`` and an
``abort(…, description=…)``, as a literal, an f-string, or a module's constant."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.api.error_rules import russian

APP = Path(__file__).resolve().parents[2] / "app"
# the callables whose message is which positional argument (or keyword)
MESSAGE_AT = {"DomainError": 1, "ApiError": 2, "InvalidInput": 0, "refuse": 1}
MESSAGE_KEYWORDS = {"message", "description", "error_message"}


def error_kinds(trees: dict[Path, ast.Module]) -> dict[str, int]:
    """MESSAGE_AT and every class deriving from one of its classes, anywhere in app/ (NotFound, GenerationRunning…)."""
    kinds = dict(MESSAGE_AT)
    classes = [node for tree in trees.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    grown = True
    while grown:
        grown = False
        for node in classes:
            bases = [base.id for base in node.bases if isinstance(base, ast.Name) and base.id in kinds]
            if bases and node.name not in kinds:
                kinds[node.name] = kinds[bases[0]]
                grown = True
    return kinds


def constants(tree: ast.Module) -> dict[str, ast.expr]:
    """A module's NAME = "…" assignments."""
    found: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            found[node.targets[0].id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            found[node.target.id] = node.value
    return found


def text_of(node: ast.expr, names: dict[str, ast.expr]) -> str | None:
    """The literal text of a message expression, placeholders left out; None when it is not written here."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value for part in node.values if isinstance(part, ast.Constant))
    if isinstance(node, ast.Name) and node.id in names:
        return text_of(names[node.id], {})
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return text_of(node.func.value, names)
    if isinstance(node, ast.BinOp):  # "…" + "…"
        left, right = text_of(node.left, names), text_of(node.right, names)
        return None if left is None or right is None else left + right
    return None


def callee(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    return node.func.attr if isinstance(node.func, ast.Attribute) else None


def messages_in(trees: dict[Path, ast.Module], kinds: dict[str, int]) -> list[tuple[str, str | None]]:
    """(where, text) of every message given to an error of ``kinds`` in ``trees``; text None when it is not written in
    that module."""
    found = []
    for path, tree in trees.items():
        names = constants(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = callee(node)
            given = [keyword.value for keyword in node.keywords if keyword.arg in MESSAGE_KEYWORDS]
            if name in kinds and len(node.args) > kinds[name]:
                given.append(node.args[kinds[name]])
            if name == "abort" or name in kinds or any(keyword.arg == "error_message" for keyword in node.keywords):
                found += [(f"{path}:{node.lineno}", text_of(value, names)) for value in given]
    return found


def trees_of(root: Path) -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(root.rglob("*.py"))}


def test_every_message_given_to_an_error_is_russian():
    trees = trees_of(APP)
    found = messages_in(trees, error_kinds(trees))
    written = [(where, text) for where, text in found if text is not None]
    assert len(written) > 60  # the scan sees the refusals (there are more than sixty)
    assert [(where, text) for where, text in written if not russian(text)] == []


def test_the_scan_sees_english_wherever_it_is_written(tmp_path: Path):
    (tmp_path / "rules.py").write_text(
        'from app.services.errors import Invalid, NotFound\n'
        'GONE = "It is gone"\n'
        'class Expired(NotFound):\n    pass\n'
        'def one(n):\n'
        '    raise NotFound("gone", GONE)\n'
        'def two(n):\n'
        '    raise Expired("expired", f"Expired {n} ago", {"n": n})\n'
        'def three(n):\n'
        '    raise Invalid("bad", message="Bad value")\n'
        'def four(n):\n'
        '    raise ApiError(404, "nothing", "Nothing here")\n'
        'def five(n):\n'
        '    raise InvalidInput("Not JSON {n}".format(n=n))\n'
        'def six(n):\n'
        '    raise NotFound("fine", "Не найдено")\n', encoding="utf-8")
    found = messages_in(trees_of(tmp_path), error_kinds({**trees_of(APP), **trees_of(tmp_path)}))
    assert sorted(text for _, text in found) == ["Bad value", "Expired  ago", "It is gone", "Not JSON {n}",
                                                 "Nothing here", "Не найдено"]
