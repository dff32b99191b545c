"""``flask demo …``: the demo catalogue and its sample media; ``flask search …``, ``flask sitemap …``; ``flask accounts
…``: the first administrator of a deployment, and roles (docs/accounts.md); ``flask catalogue import|export``
(docs/import.md)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

import click
from flask import current_app
from flask.cli import AppGroup

demo_cli = AppGroup("demo", help="The demo catalogue and its generated sample media.")
search_cli = AppGroup("search", help="The catalogue's search index.")
sitemap_cli = AppGroup("sitemap", help="The sitemaps, generated ahead (app/services/seo/sitemaps.py).")
accounts_cli = AppGroup("accounts", help="Accounts: the first administrator, roles (docs/accounts.md).")
catalogue_cli = AppGroup("catalogue", help="The catalogue imported from a file and exported to one (docs/import.md).")
jobs_cli = AppGroup("jobs", help="The job queue: its workers, and a probe of them (docs/jobs.md).")
DEVELOPMENT_BASE_URL = "http://127.0.0.1:5000"  # the sitemaps' addresses without PUBLIC_URL: make start's


@sitemap_cli.command("generate")
@click.option("--base-url", help="The origin the files' addresses start with [default: PUBLIC_URL, else "
              f"{DEVELOPMENT_BASE_URL}].")
def sitemap_generate_command(base_url: str | None) -> None:
    """Generate every sitemap file and the index, and make them live at once (after the catalogue changed; from
    cron, say hourly), at the lower CPU priority of background work (BACKGROUND_NICE)."""
    from app.jobs.worker import lower_priority

    batch()
    lower_priority(int(current_app.config["BACKGROUND_NICE"]))
    if not generate_sitemaps(base_url):
        raise click.exceptions.Exit(1)


def batch() -> None:
    """This command's statements run without the requests' deadlines (app/database.py ``batch_statements``)."""
    from app.database import batch_statements
    from app.extensions import db

    batch_statements(current_app._get_current_object(), db.engine)  # type: ignore[attr-defined]


def generate_sitemaps(base_url: str | None = None) -> bool:
    """Generates the sitemaps and says what came of it; False when another generation was running."""
    from app.extensions import db
    from app.jobs.sitemaps import generate
    from app.services.seo.sitemap_entries import sitemap_config
    from app.services.seo.sitemaps import GenerationRunning

    base = base_url or current_app.config["PUBLIC_URL"] or DEVELOPMENT_BASE_URL
    try:
        made = generate(db.session, sitemap_config(current_app.config, base))
    except GenerationRunning as error:
        click.echo(f"sitemaps: {error.message}", err=True)
        return False
    except ValueError as error:  # a --base-url that is no origin
        raise click.BadParameter(str(error), param_hint="--base-url") from None
    click.echo(f"sitemaps: {made.url_count:,} URLs ({made.video_count:,} videos) in {made.file_count} files, "
               f"{(made.duration_ms or 0) / 1000:.1f} s, for {made.base_url}")
    return True


@search_cli.command("reindex")
def reindex_command() -> None:
    """Rewrite the search index of every content (after contents changed outside the service)."""
    import time

    from app.caching import invalidate_catalogue
    from app.jobs.derived import rescore
    from app.jobs.search import rebuild_index

    batch()
    started = time.monotonic()
    written = rebuild_index()
    rescore()  # the stored relevance and reach too (app/services/catalogue/relevance.py, reach.py)
    invalidate_catalogue()
    click.echo(f"search index: {written:,} contents in {time.monotonic() - started:.1f} s")


@catalogue_cli.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--dry-run", is_flag=True, help="Check and count every line, keep nothing.")
def catalogue_import_command(file: Path, dry_run: bool) -> None:
    """Import the contents of FILE (JSON Lines: .jsonl or .ndjson; CSV: .csv), by their Kinopoisk or IMDb id: new ones
    added, changed ones updated, the rest left as they are. Every line not imported is named with why; exit 1 then."""
    from app.services.catalogue.imports import import_catalogue
    from app.services.errors import DomainError

    batch()
    bars: list[Any] = []

    def progress(done: int, total: int) -> None:
        if not bars:
            bars.append(click.progressbar(length=total, label="Импорт", file=sys.stderr).__enter__())
        bars[0].update(done - bars[0].pos)

    try:
        report = import_catalogue(file, progress=progress, dry_run=dry_run,
                                  media_root=Path(current_app.config["MEDIA_ROOT"]),
                                  media_url=current_app.config["MEDIA_URL_PATH"])
    except DomainError as refusal:
        _refuse(refusal.message)
    finally:
        if bars:
            bars[0].__exit__(None, None, None)
    errors = f" (ошибок {len(report.errors)})" if len(report.errors) > report.failed else ""
    click.echo(("Проверка без записи: " if dry_run else "") + f"строк {report.lines}, создано {report.created}, "
               f"обновлено {report.updated}, без изменений {report.unchanged}, с ошибками {report.failed}{errors}")
    for error in report.errors:
        click.echo(f"строка {error.line}" + (f", поле {error.field}" if error.field else "") + f": {error.message}")
    if report.changed and not dry_run:
        generate_sitemaps()
    if report.errors:
        raise click.exceptions.Exit(1)


@catalogue_cli.command("export")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv"]), help="[default: the output's extension, else "
              "jsonl]")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True, path_type=Path),
              help="The file to write [default: standard output].")
def catalogue_export_command(fmt: str | None, output: Path | None) -> None:
    """Write every content with a Kinopoisk or IMDb id in the import's format (an export imports as it is)."""
    from app.services.catalogue.imports import export_catalogue

    batch()
    fmt = fmt or ("csv" if output is not None and output.suffix.lower() == ".csv" else "jsonl")
    if output is None:
        written = export_catalogue(sys.stdout, fmt)  # type: ignore[arg-type]
    else:
        with output.open("w", encoding="utf-8", newline="") as out:
            written = export_catalogue(out, fmt)  # type: ignore[arg-type]
    click.echo(f"выгружено контентов: {written}", err=True)


@demo_cli.command("seed")
@click.option("--reset", is_flag=True, help="Delete every content first (the demo catalogue is rewritten).")
def seed_command(reset: bool) -> None:
    """Write the demo catalogue (fixed ids) into an empty database."""
    from app.demo.accounts import seed_accounts
    from app.demo.ads import seed_ads
    from app.demo.seed import seed_demo

    batch()
    created = seed_demo(media_url=current_app.config["MEDIA_URL_PATH"], reset=reset)
    click.echo("demo catalogue written" if created else "database already has contents: demo catalogue left as is")
    ads = seed_ads(media_url=current_app.config["MEDIA_URL_PATH"], reset=reset)
    click.echo("demo ads written" if ads else "database already has ads: demo ads left as is")
    if current_app.config["ENV"] == "production":  # deploy/production.py seeds the catalogue of a production shape
        click.echo("demo accounts: none with ENV=production (their password is public)")
    else:
        click.echo(f"demo accounts: {seed_accounts(current_app.config['ENV'])} added (password in docs/accounts.md)")
    generate_sitemaps()


@demo_cli.command("catalogue")
@click.option("--titles", type=click.IntRange(1, 1_000_000), default=1000, show_default=True,
              help="How many contents to add.")
@click.option("--seed", type=int, default=1, show_default=True, help="The same seed makes the same catalogue.")
def catalogue_command(titles: int, seed: int) -> None:
    """Add a synthetic catalogue of realistic size (for benchmarks) beside the demo's: run `flask demo seed` first."""
    import time

    from app.caching import invalidate_catalogue
    from app.demo.synthetic import generate
    from app.jobs.derived import rescore

    batch()
    started = time.monotonic()

    def progress(done: int, total: int) -> None:
        click.echo(f"  {done:>9,} / {total:,} titles  {time.monotonic() - started:6.1f} s")

    episodes = generate(titles, seed=seed, media_url=current_app.config["MEDIA_URL_PATH"], progress=progress)
    rescore()  # written in bulk, not through the ORM: their relevance and reach (app/services/catalogue/…)
    invalidate_catalogue()
    click.echo(f"added {titles:,} titles with {episodes:,} episodes in {time.monotonic() - started:.0f} s")
    generate_sitemaps()


@demo_cli.command("media")
def media_command() -> None:
    """Generate the sample HLS media and the ad creatives with ffmpeg (cached: quick when nothing changed)."""
    from app.demo.ads import generate_creatives
    from app.demo.media import generate

    root = Path(current_app.config["MEDIA_ROOT"])
    changed = generate(root, url_prefix=current_app.config["MEDIA_URL_PATH"].rstrip("/"))
    changed = generate_creatives(root) or changed
    click.echo(f"media {'generated' if changed else 'up to date'} in {root}")


@accounts_cli.command("create-admin")
@click.argument("email")
@click.option("--name", help="The account's name [default: the email's part before @].")
@click.option("--password-stdin", is_flag=True,
              help="Read the password from the first line of standard input (a pipe, a secret file) instead of asking "
                   "for it.")
def create_admin_command(email: str, name: str | None, password_stdin: bool) -> None:
    """Make a confirmed administrator: how an operator gets into a deployment that has no account yet. The password
    is asked for twice without echo, or read from standard input; never taken from the command line or the
    environment, which other users and the logs can read. Refused (exit 1), with nothing written: a password the API
    would refuse, an email that already has an account."""
    from app.models import Role
    from app.services.accounts.accounts import create_account, find_account
    from app.services.errors import DomainError
    from app.transaction import transaction

    email = _checked_email(email)
    name = _checked_name(name if name is not None else email.split("@", 1)[0])
    if find_account(email) is not None:  # before asking for a password that could not be used
        _refuse("Этот адрес почты уже занят", "`flask accounts set-role EMAIL admin` gives an account the role")
    password = _read_password(password_stdin)
    try:
        with transaction():
            account = create_account(email, name, password, Role.ADMIN)
            made = f"{account.email} (id {account.id})"
    except DomainError as refusal:
        _refuse(refusal.message)
    click.echo(f"administrator {made} created: sign in at /admin/ or POST /authentication")


@accounts_cli.command("set-role")
@click.argument("email")
@click.argument("role", type=click.Choice(["viewer", "editor", "admin"]))
def set_role_command(email: str, role: str) -> None:
    """Give the account of EMAIL the role ROLE. A change ends every session of the account (its tokens carry the old
    role): it signs in again."""
    from app import registry
    from app.models import Role
    from app.services.accounts.accounts import set_role
    from app.services.errors import DomainError
    from app.transaction import transaction

    try:
        with transaction():
            account, changed = set_role(email, Role(role), registry.revocations())
            said = f"{account.email} (id {account.id})"
    except DomainError as refusal:
        _refuse(refusal.message)
    click.echo(f"{said}: {role}" + ("; its sessions ended" if changed else " already"))


def _refuse(message: str, hint: str | None = None) -> NoReturn:
    click.echo(f"refused: {message}" + (f" ({hint})" if hint else ""), err=True)
    raise click.exceptions.Exit(1)


def _checked_email(email: str) -> str:
    from marshmallow import ValidationError

    from app.models.accounts import MAX_EMAIL, normalise_email
    from app.schemas.accounts import Email

    try:
        Email().deserialize(email.strip())
    except ValidationError:
        raise click.BadParameter(f"{email!r} is not an email address", param_hint="EMAIL") from None
    if len(email.strip()) > MAX_EMAIL:
        raise click.BadParameter(f"longer than {MAX_EMAIL} characters", param_hint="EMAIL")
    return normalise_email(email)


def _checked_name(name: str) -> str:
    from marshmallow import ValidationError

    from app.schemas.accounts import Name

    try:
        return str(Name().deserialize(name)).strip()
    except ValidationError as error:
        raise click.BadParameter(" ".join(map(str, error.messages)), param_hint="--name") from None


def _read_password(from_stdin: bool) -> str:
    if not from_stdin:
        return str(click.prompt("Password", hide_input=True, confirmation_prompt="Repeat the password"))
    line = sys.stdin.readline()  # (the test runner's input, under CliRunner)
    password = line[:-1] if line.endswith("\n") else line
    password = password[:-1] if password.endswith("\r") else password
    if not password:
        _refuse("no password on standard input (its first line)")
    return password


@jobs_cli.command("worker")
def jobs_worker_command() -> None:
    """Run a worker: QUEUE_WORKERS threads taking jobs, and the recovery of jobs whose worker died, until SIGTERM
    (its running jobs queued again at once) or Ctrl-C (they finish first)."""
    import logging

    from flask.logging import default_handler

    from app.http.requests import RequestIdFilter
    from app.jobs.worker import work

    default_handler.addFilter(RequestIdFilter())  # the jobs' records come from below the app's logger
    for name in ("app", "huey"):  # what the worker does, on its standard error
        logging.getLogger(name).setLevel(logging.INFO)
    logging.getLogger("huey").addHandler(default_handler)
    work(current_app._get_current_object())  # type: ignore[attr-defined]


@jobs_cli.command("probe")
@click.option("--steps", default=10, show_default=True, help="Steps of the probe job.")
@click.option("--wait", default=60.0, show_default=True, help="Seconds to wait for a worker to finish it.")
def jobs_probe_command(steps: int, wait: float) -> None:
    """Queue a probe job and follow it to its end: do the workers take jobs and report?"""
    import time

    from app.clock import now
    from app.extensions import db
    from app.jobs.queue import send_after_commit
    from app.models.jobs import Job
    from app.services import jobs
    from app.transaction import transaction

    app = current_app._get_current_object()  # type: ignore[attr-defined]
    with transaction():
        job_id = jobs.create(db.session, "probe", {"steps": steps, "step_seconds": 0.1}, now=now()).id
        send_after_commit(app, job_id)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        db.session.remove()
        job = db.session.get_one(Job, job_id)
        click.echo(f"job {job_id}: {job.state.value} {job.done}/{job.total or '?'} {job.message or ''}")
        if job.finished:
            if job.state.value != "done":
                raise click.exceptions.Exit(1)
            return
        time.sleep(1)
    click.echo(f"job {job_id}: no worker finished it in {wait:g} s (is `flask jobs worker` running?)", err=True)
    raise click.exceptions.Exit(1)
