"""The admin's vendored drag library (app/admin/static/vendor/sortable.min.js, served as a file under the admin's
script-src 'self') is npm's sortablejs at the version package.json pins, byte for byte: updating it is `npm install`
then copying the file again, which this test asks for."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_vendored_sortable_is_the_pinned_npm_package():
    pinned = json.loads((ROOT / "package.json").read_text())["devDependencies"]["sortablejs"]
    package = ROOT / "node_modules" / "sortablejs"
    assert json.loads((package / "package.json").read_text())["version"] == pinned
    vendored = ROOT / "app" / "admin" / "static" / "vendor"
    assert (vendored / "sortable.min.js").read_bytes() == (package / "Sortable.min.js").read_bytes()
    assert (vendored / "sortable.LICENSE").read_bytes() == (package / "LICENSE").read_bytes()
    assert f"Sortable {pinned} - MIT" in (vendored / "sortable.min.js").read_text()[:100]


def test_the_vendored_tus_client_is_the_pinned_npm_package():
    """The video upload's tus-js-client (app/admin/static/vendor/tus.min.js, docs/video-upload.md), likewise."""
    pinned = json.loads((ROOT / "package.json").read_text())["devDependencies"]["tus-js-client"]
    package = ROOT / "node_modules" / "tus-js-client"
    assert json.loads((package / "package.json").read_text())["version"] == pinned
    vendored = ROOT / "app" / "admin" / "static" / "vendor"
    assert (vendored / "tus.min.js").read_bytes() == (package / "dist" / "tus.min.js").read_bytes()
    assert (vendored / "tus.LICENSE").read_bytes() == (package / "LICENSE").read_bytes()
