"""Brotli sizes of the built front end and the share of them that is the player's own code.

Read from esbuild's metafile (app/static/dist/meta.json), no second build: every output is brotli-compressed
(quality 11, as the server sends hashed assets and as hls.js's own size budget measures), and each output's
compressed size is split between its inputs in proportion to their ``bytesInOutput``. Inputs from the vendor
packages (react, react-dom, scheduler, hls.js) are "vendor"; everything else is the player's own code: static_src/,
any other npm package it pulls in, and esbuild's glue (an output without inputs, like the shared runtime chunk, is
all own code; bytes no input claims are split like the rest).

"On the path to the first frame" (autoplay, no ads) means everything the player entry can load: its script and
everything it imports, statically or by ``import()``, transitively (the lazy UI chunk, the hls.js chunk, ...), its
CSS bundle, and the CSS entries (the shell's critical styles, which the page inlines in a ``<style>``). A lazy chunk
the first frame does not wait for is left out by naming its entry point in size-budget.json's
``offFirstFramePath``. The benchmark (tests/bench/run.py) checks what a real load fetched before its first frame
with ``own_bytes_of_urls``.

Used by tests/unit/test_bundle_budget.py and by the benchmark.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import brotli

from app.config import PROJECT_ROOT

DIST = PROJECT_ROOT / "app" / "static" / "dist"
BUDGET_FILE = PROJECT_ROOT / "static_src" / "size-budget.json"
ENTRY = "static_src/player.tsx"
# hls.js and the packages it bundles (static_src/build.mjs builds it from its sources)
HLS_PACKAGES = ("hls.js", "eventemitter3", "url-toolkit", "@svta/cml-cmcd", "@svta/cml-id3", "@svta/cml-utils",
                "@svta/cml-structured-field-values")
VENDOR_PACKAGES = ("react", "react-dom", "scheduler", *HLS_PACKAGES)
ENGINE_PACKAGE = "hls.js"
BROTLI_QUALITY = 11


class NotBuilt(RuntimeError):
    """app/static/dist/meta.json is missing: `npm run build` has not run."""


def package_of(input_path: str) -> str | None:
    """``node_modules/react-dom/cjs/x.js`` -> ``react-dom`` (scoped: ``@scope/name``); None outside node_modules."""
    parts = PurePosixPath(input_path).parts
    if "node_modules" not in parts:
        return None
    rest = parts[len(parts) - parts[::-1].index("node_modules"):]  # after the last node_modules/
    if not rest:
        return None
    return "/".join(rest[:2]) if rest[0].startswith("@") else rest[0]


def is_vendor(input_path: str) -> bool:
    return package_of(input_path) in VENDOR_PACKAGES


@dataclass
class Output:
    name: str  # relative to the build directory: player-ABC.js, chunks/hls-DEF.js
    raw: int
    brotli: int
    own_share: float  # 0..1 of the output that is the player's own code
    packages: dict[str, int] = field(default_factory=dict)  # bytesInOutput per vendor package, "own" for the rest
    role: str = "other"  # entry-js, entry-chunk, lazy, css, inline-css, engine; off-path (named so); other (demo)

    @property
    def own_brotli(self) -> float:
        return self.brotli * self.own_share

    @property
    def url_path(self) -> str:
        return f"/assets/{self.name}"


@dataclass
class Sizes:
    outputs: dict[str, Output]

    def by_role(self, *roles: str) -> list[Output]:
        return [o for o in self.outputs.values() if o.role in roles]

    @property
    def first_frame_path(self) -> list[Output]:
        return self.by_role("entry-js", "entry-chunk", "lazy", "css", "inline-css", "engine")

    @property
    def figures(self) -> dict[str, float]:
        """The budgeted figures, brotli bytes: keys of static_src/size-budget.json."""
        return {
            "entry-js": sum(o.brotli for o in self.by_role("entry-js", "entry-chunk")),
            "lazy-js": sum(o.brotli for o in self.by_role("lazy")),
            "hls-chunk": sum(o.brotli for o in self.by_role("engine")),
            "css": sum(o.brotli for o in self.by_role("css", "inline-css")),
            "own-code": sum(o.own_brotli for o in self.first_frame_path),
        }

    dist: Path = DIST

    def own_bytes_of_urls(self, paths: list[str]) -> float:
        """Own-code brotli bytes of the built files among these URL paths (``/assets/…``), each counted once.

        A file the metafile does not list (copied or built apart by static_src/build.mjs) is vendor code when it
        is a copy of a file of a vendor package (hls.js's worker), else all own code."""
        known = {o.url_path: o for o in self.outputs.values()}
        total = 0.0
        for path in sorted(set(paths)):
            if path in known:
                total += known[path].own_brotli
            elif path.startswith("/assets/") and (self.dist / path.removeprefix("/assets/")).is_file():
                data = (self.dist / path.removeprefix("/assets/")).read_bytes()
                if not is_vendor_copy(data):
                    total += len(brotli.compress(data, quality=BROTLI_QUALITY))
        return total


def inline_text(css_file: Path) -> str:
    """A CSS entry as the page inlines it: the build's text without its ``sourceMappingURL`` comment."""
    return css_file.read_text(encoding="utf-8").split("/*# sourceMappingURL=")[0].strip()


def is_vendor_copy(data: bytes) -> bool:
    for package in VENDOR_PACKAGES:
        dist = PROJECT_ROOT / "node_modules" / package / "dist"
        if dist.is_dir() and any(f.stat().st_size == len(data) and f.read_bytes() == data
                                 for f in dist.iterdir() if f.is_file()):
            return True
    return False


def measure(dist: Path = DIST, off_path: list[str] | None = None) -> Sizes:
    """Sizes of the build in ``dist``; ``off_path``: entry points of lazy chunks the first frame does not need
    (size-budget.json's ``offFirstFramePath`` when not given)."""
    if off_path is None:
        off_path = load_budget().get("offFirstFramePath", []) if BUDGET_FILE.exists() else []
    meta_path = dist / "meta.json"
    if not meta_path.exists():
        raise NotBuilt(f"{meta_path} is missing: build the front end with `npm run build`")
    meta = json.loads(meta_path.read_text())
    outputs: dict[str, Output] = {}
    info_of: dict[str, dict] = {}
    for output_path, info in meta["outputs"].items():
        if output_path.endswith(".map"):
            continue
        parts = PurePosixPath(output_path).parts
        name = str(PurePosixPath(*parts[parts.index(dist.name) + 1:]))
        data = (dist / name).read_bytes()
        packages: dict[str, int] = {}
        for input_path, input_info in info.get("inputs", {}).items():
            key = package_of(input_path) if is_vendor(input_path) else "own"
            packages[key or "own"] = packages.get(key or "own", 0) + input_info["bytesInOutput"]
        attributed = sum(packages.values())
        own_share = packages.get("own", 0) / attributed if attributed else 1.0
        outputs[output_path] = Output(name, len(data), len(brotli.compress(data, quality=BROTLI_QUALITY)),
                                      own_share, packages)
        info_of[output_path] = info

    entry = next((p for p, i in info_of.items() if i.get("entryPoint") == ENTRY and p.endswith(".js")), None)
    if entry is None:
        raise NotBuilt(f"no output for {ENTRY} in {meta_path}")

    def closure(start: str, kinds: tuple[str, ...]) -> list[str]:
        seen: list[str] = []
        todo = [start]
        while todo:
            current = todo.pop()
            if current in seen or current not in info_of:
                continue
            seen.append(current)
            todo += [i["path"] for i in info_of[current].get("imports", []) if i.get("kind") in kinds]
        return seen

    static = closure(entry, ("import-statement",))
    for path in closure(entry, ("import-statement", "dynamic-import")):
        output, info = outputs[path], info_of[path]
        if path == entry:
            output.role = "entry-js"
        elif path in static:
            output.role = "entry-chunk"
        elif ENGINE_PACKAGE in output.packages and output.own_share == 0:
            output.role = "engine"
        elif info.get("entryPoint") in off_path:
            output.role = "off-path"
        else:
            output.role = "lazy"  # a chunk loaded by import(), or one that only such chunks import
    css = info_of[entry].get("cssBundle")
    if css in outputs:
        outputs[css].role = "css"
    for path, info in info_of.items():
        if path.endswith(".css") and str(info.get("entryPoint", "")).endswith(".css"):
            output = outputs[path]  # a CSS entry: the page inlines it (app/http/assets.py inline_css) ...
            output.role = "inline-css"
            text = inline_text(dist / output.name).encode()  # ... without its source-map comment
            output.raw, output.brotli = len(text), len(brotli.compress(text, quality=BROTLI_QUALITY))
    return Sizes(outputs, dist)


@dataclass
class BudgetCheck:
    name: str
    size: float
    budget: int
    tolerance: float
    hard_limit: int | None

    @property
    def allowed(self) -> float:
        allowed = self.budget * (1 + self.tolerance)
        return min(allowed, self.hard_limit) if self.hard_limit is not None else allowed

    @property
    def ok(self) -> bool:
        return self.size <= self.allowed


def load_budget(path: Path = BUDGET_FILE) -> dict:
    return json.loads(path.read_text())


def check_budget(sizes: Sizes, budget: dict) -> list[BudgetCheck]:
    figures = sizes.figures
    tolerance = float(budget.get("tolerance", 0))
    limits = budget.get("hardLimits", {})
    return [BudgetCheck(name, figures[name], int(value), tolerance, limits.get(name))
            for name, value in budget["files"].items()]


def report(sizes: Sizes, checks: list[BudgetCheck] | None = None) -> str:
    lines = ["built outputs (brotli q11; own = the player's code, without react, react-dom, scheduler, hls.js):",
             f"  {'output':<34}{'role':<12}{'raw':>9}{'brotli':>9}{'own br':>9}"]
    order = ["entry-js", "entry-chunk", "lazy", "css", "inline-css", "engine", "off-path", "other"]
    for o in sorted(sizes.outputs.values(), key=lambda o: (order.index(o.role), o.name)):
        lines.append(f"  {o.name:<34}{o.role:<12}{o.raw:>9}{o.brotli:>9}{o.own_brotli:>9.0f}")
    if checks:
        lines.append("budgets (static_src/size-budget.json; bytes, brotli):")
        lines.append(f"  {'figure':<12}{'now':>9}{'budget':>9}{'allowed':>9}{'headroom':>10}  result")
        for c in checks:
            lines.append(f"  {c.name:<12}{c.size:>9.0f}{c.budget:>9}{c.allowed:>9.0f}{c.allowed - c.size:>10.0f}  "
                         + ("ok" if c.ok else "OVER BUDGET"))
    return "\n".join(lines)


if __name__ == "__main__":  # python -m tests.bench.sizes: print the figures
    measured = measure()
    print(report(measured, check_budget(measured, load_budget()) if BUDGET_FILE.exists() else None))
