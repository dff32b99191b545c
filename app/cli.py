"""``flask demo …``: the demo catalogue and its sample media."""

from __future__ import annotations

from pathlib import Path

import click
from flask import current_app
from flask.cli import AppGroup

demo_cli = AppGroup("demo", help="The demo catalogue and its generated sample media.")
search_cli = AppGroup("search", help="The catalogue's search index.")


@search_cli.command("reindex")
def reindex_command() -> None:
    """Rewrite the search index of every content (after contents changed outside the service)."""
    import time

    from app.caching import invalidate_catalogue
    from app.services.search_index import reindex

    started = time.monotonic()
    written = reindex()
    invalidate_catalogue()
    click.echo(f"search index: {written:,} contents in {time.monotonic() - started:.1f} s")


@demo_cli.command("seed")
@click.option("--reset", is_flag=True, help="Delete every content first (the demo catalogue is rewritten).")
def seed_command(reset: bool) -> None:
    """Write the demo catalogue (fixed ids) into an empty database."""
    from app.demo.accounts import seed_accounts
    from app.demo.ads import seed_ads
    from app.demo.seed import seed_demo

    created = seed_demo(media_url=current_app.config["MEDIA_URL_PATH"], reset=reset)
    click.echo("demo catalogue written" if created else "database already has contents: demo catalogue left as is")
    ads = seed_ads(media_url=current_app.config["MEDIA_URL_PATH"], reset=reset)
    click.echo("demo ads written" if ads else "database already has ads: demo ads left as is")
    if current_app.config["ENV"] == "production":  # deploy/production.py seeds the catalogue of a production shape
        click.echo("demo accounts: none with ENV=production (their password is public)")
    else:
        click.echo(f"demo accounts: {seed_accounts(current_app.config['ENV'])} added (password in the README)")


@demo_cli.command("catalogue")
@click.option("--titles", type=click.IntRange(1, 1_000_000), default=1000, show_default=True,
              help="How many contents to add.")
@click.option("--seed", type=int, default=1, show_default=True, help="The same seed makes the same catalogue.")
def catalogue_command(titles: int, seed: int) -> None:
    """Add a synthetic catalogue of realistic size (for benchmarks) beside the demo's: run `flask demo seed` first."""
    import time

    from app.caching import invalidate_catalogue
    from app.demo.synthetic import generate

    started = time.monotonic()

    def progress(done: int, total: int) -> None:
        click.echo(f"  {done:>9,} / {total:,} titles  {time.monotonic() - started:6.1f} s")

    episodes = generate(titles, seed=seed, media_url=current_app.config["MEDIA_URL_PATH"], progress=progress)
    invalidate_catalogue()
    click.echo(f"added {titles:,} titles with {episodes:,} episodes in {time.monotonic() - started:.0f} s")


@demo_cli.command("media")
def media_command() -> None:
    """Generate the sample HLS media and the ad creatives with ffmpeg (cached: quick when nothing changed)."""
    from app.demo.ads import generate_creatives
    from app.demo.media import generate

    root = Path(current_app.config["MEDIA_ROOT"])
    changed = generate(root, url_prefix=current_app.config["MEDIA_URL_PATH"].rstrip("/"))
    changed = generate_creatives(root) or changed
    click.echo(f"media {'generated' if changed else 'up to date'} in {root}")
