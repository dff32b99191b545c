"""Brotli size budgets of the built player (static_src/size-budget.json), measured by tests/bench/sizes.py."""

from __future__ import annotations

import json
from pathlib import PurePosixPath

import pytest

from app.config import PROJECT_ROOT
from tests.bench.sizes import (
    BUDGET_FILE,
    DIST,
    HLS_PACKAGES,
    NotBuilt,
    check_budget,
    load_budget,
    measure,
    report,
)


@pytest.fixture(scope="module")
def sizes():
    try:
        return measure(DIST)
    except NotBuilt as error:
        pytest.skip(f"front end not built ({error}); `npm run build` or `make test` builds it")


def test_budget_file_names_every_figure_and_keeps_the_own_code_target():
    budget = load_budget(BUDGET_FILE)
    assert set(budget["files"]) == {"entry-js", "lazy-js", "hls-chunk", "css", "own-code"}
    assert budget["tolerance"] == 0.02
    assert budget["hardLimits"]["own-code"] <= 35_000  # the target: own code under 35 kB brotli


def test_the_first_frame_path_is_found(sizes):
    roles = [o.role for o in sizes.outputs.values()]
    assert roles.count("entry-js") == 1 and roles.count("engine") == 1 and roles.count("css") == 1
    engine = sizes.by_role("engine")[0]
    assert engine.own_share == 0 and "hls.js" in engine.packages
    react = [o for o in sizes.first_frame_path if "react-dom" in o.packages]
    assert react, "React is on the path to the first frame, in the entry or a lazy chunk"
    figures = sizes.figures
    assert 0 < figures["own-code"] < figures["entry-js"] + figures["lazy-js"] + figures["css"]


def test_bundle_stays_within_budget(sizes, capsys):
    checks = check_budget(sizes, load_budget(BUDGET_FILE))
    with capsys.disabled():
        print("\n" + report(sizes, checks))
    over = [f"{c.name}: {c.size:.0f} B > {c.allowed:.0f} B allowed (budget {c.budget})" for c in checks if not c.ok]
    assert not over, "over budget (raise static_src/size-budget.json only on purpose): " + "; ".join(over)


def test_roles_and_own_share_from_a_metafile(tmp_path):
    """A made-up build: the entry, a shared chunk, a lazy UI chunk with React, hls.js, an off-path chunk, CSS."""
    import json

    from tests.bench.sizes import package_of

    dist = tmp_path / "app" / "static" / "dist"
    (dist / "chunks").mkdir(parents=True)
    files = {
        "player-A.js": ("static_src/player.tsx", {"static_src/player.tsx": 300},
                        [("chunks/shared-B.js", "import-statement"), ("chunks/mount-C.js", "dynamic-import"),
                         ("chunks/hls-D.js", "dynamic-import"), ("chunks/share-E.js", "dynamic-import")]),
        "chunks/shared-B.js": (None, {"static_src/core/events.ts": 100}, []),
        "chunks/mount-C.js": ("static_src/ui/mount.tsx",
                              {"static_src/ui/Player.tsx": 250, "node_modules/react-dom/cjs/x.js": 750}, []),
        "chunks/hls-D.js": ("node_modules/hls.js/dist/hls.mjs", {"node_modules/hls.js/dist/hls.mjs": 900}, []),
        "chunks/share-E.js": ("static_src/share/popup.ts", {"static_src/share/popup.ts": 80}, []),
        "player-F.css": (None, {"static_src/player.css": 120}, []),
        "shell-G.css": ("static_src/styles/shell.css", {"static_src/styles/shell.css": 90}, []),
    }
    outputs = {}
    for name, (entry_point, inputs, imports) in files.items():
        (dist / name).write_text("x" * sum(inputs.values()) + "\n/*# sourceMappingURL=x.map */")
        outputs[f"app/static/dist/{name}"] = {
            **({"entryPoint": entry_point} if entry_point else {}),
            "inputs": {path: {"bytesInOutput": size} for path, size in inputs.items()},
            "imports": [{"path": f"app/static/dist/{path}", "kind": kind} for path, kind in imports],
        }
    outputs["app/static/dist/player-A.js"]["cssBundle"] = "app/static/dist/player-F.css"
    (dist / "meta.json").write_text(json.dumps({"inputs": {}, "outputs": outputs}))

    sizes = measure(dist, off_path=["static_src/share/popup.ts"])
    roles = {o.name: o.role for o in sizes.outputs.values()}
    assert roles == {"player-A.js": "entry-js", "chunks/shared-B.js": "entry-chunk", "chunks/mount-C.js": "lazy",
                     "chunks/hls-D.js": "engine", "chunks/share-E.js": "off-path", "player-F.css": "css",
                     "shell-G.css": "inline-css"}
    mount = next(o for o in sizes.outputs.values() if o.name == "chunks/mount-C.js")
    assert mount.own_share == 0.25 and mount.packages == {"own": 250, "react-dom": 750}
    path = {o.name for o in sizes.first_frame_path}
    assert "chunks/share-E.js" not in path and "chunks/mount-C.js" in path
    assert sizes.own_bytes_of_urls(["/assets/chunks/mount-C.js"]) == mount.own_brotli

    budget = {"tolerance": 0.02, "files": {"own-code": 1}, "hardLimits": {"own-code": 10**6}}
    assert not check_budget(sizes, budget)[0].ok
    assert package_of("node_modules/@scope/pkg/index.js") == "@scope/pkg"
    assert package_of("static_src/player.tsx") is None


def test_the_packages_hls_js_bundles_are_the_versions_it_was_released_with():
    """static_src/build.mjs builds hls.js from its sources, which import these packages; its release pins them."""
    ours = json.loads((PROJECT_ROOT / "package.json").read_text())["dependencies"]
    hls = json.loads((PROJECT_ROOT / "node_modules" / "hls.js" / "package.json").read_text())
    for package in HLS_PACKAGES[1:]:
        assert ours.get(package) == hls["devDependencies"][package], package


def test_the_hls_chunk_has_alternate_audio_and_none_of_the_features_turned_off(sizes):
    engine = sizes.by_role("engine")[0]
    meta = json.loads((DIST / "meta.json").read_text())["outputs"][f"app/static/dist/{engine.name}"]
    inputs = {PurePosixPath(path).name for path in meta["inputs"]}
    assert {"audio-stream-controller.ts", "audio-track-controller.ts"} <= inputs
    assert not inputs & {"eme-controller.ts", "cmcd-controller.ts", "subtitle-stream-controller.ts",
                         "interstitials-controller.ts", "content-steering-controller.ts"}
