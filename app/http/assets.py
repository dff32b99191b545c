"""Script and style tags from esbuild's metafile: hashed names, never written by hand."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from markupsafe import Markup


class AssetsNotBuilt(RuntimeError):
    """The front end has not been built: run `npm run build` (make start does)."""


@dataclass(frozen=True)
class EntryAssets:
    script: str  # URL of the entry's module script
    styles: tuple[str, ...]  # its CSS bundle, if it imports any CSS
    preloads: tuple[str, ...]  # chunks the entry imports statically: modulepreload, fetched in parallel


class Manifest:
    """Reads ``meta.json`` from the build directory, again only when the file changes."""

    def __init__(self, build_dir: str | Path, url_prefix: str) -> None:
        self.build_dir = Path(build_dir)
        self.url_prefix = url_prefix.rstrip("/") + "/"
        self._mtime: float | None = None
        self._entries: dict[str, EntryAssets] = {}
        self._inline: dict[str, Markup] = {}

    def entry(self, name: str) -> EntryAssets:
        """Assets of the entry point ``static_src/<name>``, e.g. ``player.tsx``."""
        self._reload()
        try:
            return self._entries[name]
        except KeyError:
            raise AssetsNotBuilt(f"no entry {name!r} in {self.build_dir / 'meta.json'}") from None

    def version(self) -> str:
        """The build's identity (its manifest's modification time): what a kept page was made with."""
        self._reload()
        return repr(self._mtime)

    def inline_css(self, name: str) -> Markup:
        """The text of the CSS entry ``static_src/<name>`` for a ``<style>`` tag: the shell's critical styles, so the
        first paint waits for no stylesheet request. It is our own build output, never data."""
        self._reload()
        try:
            return self._inline[name]
        except KeyError:
            raise AssetsNotBuilt(f"no CSS entry {name!r} in {self.build_dir / 'meta.json'}") from None

    def _reload(self) -> None:
        meta_path = self.build_dir / "meta.json"
        try:
            mtime = meta_path.stat().st_mtime
        except FileNotFoundError:
            raise AssetsNotBuilt(f"{meta_path} is missing: build the front end with `npm run build`") from None
        if mtime == self._mtime:
            return
        outputs: dict[str, dict] = json.loads(meta_path.read_text())["outputs"]
        root = PurePosixPath(self.build_dir.name)  # outputs are named relative to the project: app/static/dist/…

        def url(output: str) -> str:
            parts = PurePosixPath(output).parts
            relative = PurePosixPath(*parts[parts.index(root.name) + 1:])
            return self.url_prefix + str(relative)

        entries: dict[str, EntryAssets] = {}
        inline: dict[str, Markup] = {}
        for output, info in outputs.items():
            entry_point = info.get("entryPoint")
            if entry_point and output.endswith(".css"):
                text = (self.build_dir / PurePosixPath(output).name).read_text(encoding="utf-8")
                text = text.split("/*# sourceMappingURL=")[0].strip()
                if "</" in text:  # cannot end the <style> element early; esbuild never writes it
                    raise AssetsNotBuilt(f"{output} contains '</' and cannot be inlined")
                inline[str(PurePosixPath(entry_point).relative_to("static_src"))] = Markup(text)  # noqa: S704
                continue
            if not entry_point or not output.endswith(".js"):
                continue
            # Dynamically imported modules (the interface chunk, hls.js) are entries of their own here, by file name.
            preloads = tuple(url(i["path"]) for i in info.get("imports", []) if i.get("kind") == "import-statement")
            styles = (url(info["cssBundle"]),) if info.get("cssBundle") else ()
            entries[PurePosixPath(entry_point).name] = EntryAssets(url(output), styles, preloads)
        self._entries, self._inline, self._mtime = entries, inline, mtime
