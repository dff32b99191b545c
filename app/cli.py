"""``flask demo …``: the demo catalogue and its sample media."""

from __future__ import annotations

from pathlib import Path

import click
from flask import current_app
from flask.cli import AppGroup

demo_cli = AppGroup("demo", help="The demo catalogue and its generated sample media.")


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


@demo_cli.command("media")
def media_command() -> None:
    """Generate the sample HLS media and the ad creatives with ffmpeg (cached: quick when nothing changed)."""
    from app.demo.ads import generate_creatives
    from app.demo.media import generate

    root = Path(current_app.config["MEDIA_ROOT"])
    changed = generate(root, url_prefix=current_app.config["MEDIA_URL_PATH"].rstrip("/"))
    changed = generate_creatives(root) or changed
    click.echo(f"media {'generated' if changed else 'up to date'} in {root}")
