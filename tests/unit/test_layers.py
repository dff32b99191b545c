"""The server's layers (README "Layout"): arrows run one way. Rules (services) know no HTTP and no schema, schemas
know no rule, models know neither; config reads no layer; the plumbing (app/http) holds no domain rule; the admin
reaches the rules through services, never through the API's blueprints; jobs use rules, never views. Services change
rows and flush, never commit or roll back: the request, command or job does (app/transaction.py). Read from the
source with ast, so that a new module that breaks a rule fails here, whoever writes it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"

# module prefix → what it may not import (app modules by prefix, or third-party packages)
FORBIDDEN = {
    "app.services": ("app.api", "app.admin", "app.player", "app.http", "app.schemas", "app.errors", "flask",
                     "werkzeug", "flask_smorest", "flask_jwt_extended"),
    "app.schemas": ("app.services", "app.api", "app.admin", "app.player", "app.http", "app.errors"),
    "app.models": ("app.services", "app.schemas", "app.api", "app.admin", "app.player", "app.http", "app.errors"),
    "app.config": ("app.services", "app.api", "app.player", "app.schemas", "app.models", "app.errors"),
    "app.http": ("app.services", "app.api", "app.admin", "app.player", "app.schemas", "app.errors"),
    "app.admin": ("app.api",),
    "app.jobs": ("app.api", "app.admin", "app.player", "app.http", "app.schemas", "app.errors", "flask"),
}
TRANSACTION_ENDS = {"commit", "rollback"}


def module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


MODULES = sorted(APP.rglob("*.py"))


def broken_rules(module: str, imported: set[str]) -> list[str]:
    found = []
    for layer, forbidden in FORBIDDEN.items():
        if module == layer or module.startswith(layer + "."):
            found += [name for name in sorted(imported) for bad in forbidden
                      if name == bad or name.startswith(bad + ".")]
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_no_module_imports_against_the_arrows(path: Path):
    assert broken_rules(module_name(path), imports_of(path)) == []


def transaction_ends(path: Path) -> list[str]:
    """The ``….commit()`` and ``….rollback()`` calls of a module: where it ends a transaction."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{node.func.attr}() on line {node.lineno}" for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in TRANSACTION_ENDS]


@pytest.mark.parametrize("path", [path for path in MODULES if module_name(path).startswith("app.services")],
                         ids=lambda p: module_name(p))
def test_no_service_ends_a_transaction(path: Path):
    assert transaction_ends(path) == []


def test_the_check_sees_a_commit(tmp_path: Path):
    module = tmp_path / "rule.py"
    module.write_text("from app.extensions import db\n\ndef rule():\n    db.session.commit()\n")
    assert transaction_ends(module) == ["commit() on line 4"]


def test_the_check_sees_a_broken_rule():
    """The rule table catches what it is for (so the test above can fail)."""
    assert broken_rules("app.services.activity.progress", {"app.errors", "flask"}) == ["app.errors", "flask"]
    assert broken_rules("app.schemas.catalogue", {"app.services.player.params.MAX_ID"}) == [
        "app.services.player.params.MAX_ID"]
    assert broken_rules("app.api.catalogue", {"app.services.catalogue.contents", "flask"}) == []
    assert broken_rules("app.admin.access", {"app.api.accounts.limited_per_ip"}) == ["app.api.accounts.limited_per_ip"]
