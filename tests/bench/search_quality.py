"""Search quality (issue 34, ``make bench-search``): how often our search puts the title a viewer means first, in its
top five, or finds nothing, kind of query by kind, on SQLite and on PostgreSQL, against a plain fuzzy match over the
same titles in the same run.

The evaluation set is tests/data/search_eval/ (its README): real Soviet, Russian and foreign titles and the queries
made from them (tests/bench/search_queries.py). For each database the harness makes a catalogue of its own, dropped
afterwards: ``flask db upgrade``, ``flask demo catalogue --titles 20000`` (synthetic titles, app/demo/synthetic.py),
the evaluation's titles inserted beside them as published contents (title, original title, year, type, and their
``also`` names as alternative titles of kind international; a Kinopoisk rating drawn from 6.0–8.5 with a fixed seed,
since real titles carry one and the rank reads it: a benchmark's value, not a fact), then ``flask search reindex``.
Every query goes through ``GET /v2/contents/search?query=…&pageSize=5`` (the app's test client, no cache in the
way: each query is asked once per database). The baseline is rapidfuzz's ``process.extract`` with ``WRatio`` (its
default processor: lower case, punctuation dropped) over every published content's title, original title and
alternative titles (the same names search has), best five distinct contents, on the SQLite catalogue.

A query counts as right when the first answer is one of its ``expected`` titles (a title made twice: «солярис»
either, «солярис 2002» only the 2002 one); "top 5" when one of them is among the first five; "none" when the
answer is empty. "agree" is the share of queries whose first answer is the same title on both databases (both
empty counts as agreeing). Printed as a Markdown table and written to instance/bench/search-quality-<time>.json.

    bin/bench-search                       # both databases
    bin/bench-search --databases sqlite    # no PostgreSQL needed
    bin/bench-search --keystrokes          # every international name at every letter, instead of the set's queries
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from app.config import INSTANCE_DIR, PROJECT_ROOT, normalise_database_url
from tests.bench.search_queries import DATA, KINDS, keystrokes, read_jsonl
from tests.bench.serving import BenchError, flask, random_secret

SYNTHETIC = 20_000
SEED = 1  # flask demo catalogue --seed
POSTGRES_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/bench_search_quality"
PAGE = 5
GOALS = {"first": 92.0, "top5": 96.0, "none": 2.0, "kind": 85.0}  # the issue's, on both databases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--databases", default="sqlite,postgres", help="sqlite, postgres or both (default)")
    parser.add_argument("--titles", type=int, default=SYNTHETIC, help="synthetic titles beside the real ones")
    parser.add_argument("--postgres-url", default=POSTGRES_URL, help="a database made and dropped by the run")
    parser.add_argument("--keystrokes", action="store_true",
                        help="instead of the set's queries: every international name at every letter being typed")
    parser.add_argument("--child", nargs=3, metavar=("URL", "QUERIES", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(*args.child)
    started, clock = datetime.now(UTC), time.monotonic()
    titles = read_jsonl(DATA / "titles.jsonl")
    queries = keystrokes(titles) if args.keystrokes else read_jsonl(DATA / "queries.jsonl")
    answers: dict[str, list[list[str | None]]] = {}
    choices: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="bench-search-") as folder:
        asked = Path(folder) / "queries.jsonl"
        asked.write_text("".join(json.dumps(query, ensure_ascii=False) + "\n" for query in queries))
        for database in args.databases.split(","):
            print(f"{database}: making {args.titles:,} synthetic titles and {len(titles)} real ones", flush=True)
            try:
                url = made(database, args.postgres_url, Path(folder))
                try:
                    catalogue(url, args.titles, Path(folder))
                    out = Path(folder) / f"{database}.json"
                    run = subprocess.run([sys.executable, "-m", "tests.bench.search_quality", "--child", url,
                                          str(asked), str(out)], cwd=PROJECT_ROOT, env=environment(url, Path(folder)),
                                         check=False)
                    if run.returncode:
                        raise BenchError(f"{database}: the queries' run failed ({run.returncode})")
                    answers[database] = json.loads(out.read_text())
                    if not choices:
                        choices = titles_of(url)
                finally:
                    dropped(database, url)
            except BenchError as error:
                print(f"{database}: FAILED: {error}", file=sys.stderr)
                return 1
        print(f"baseline: rapidfuzz WRatio over {len(choices):,} titles, original and alternative titles", flush=True)
        answers["baseline"] = baseline(queries, choices)
    report = scores(queries, answers)
    text = table(report, len(titles), len(queries), args.titles)
    print("\n" + text)
    results = INSTANCE_DIR / "bench"
    results.mkdir(parents=True, exist_ok=True)
    path = results / f"search-quality-{started.strftime('%Y-%m-%dT%H-%M-%S')}.json"
    path.write_text(json.dumps({"started": started.isoformat(), "synthetic": args.titles, "titles": len(titles),
                                "queries": len(queries), "scores": report, "table": text,
                                "answers": {name: [{"query": q["query"], "kind": q["kind"], "expected": q["expected"],
                                                    "top": top} for q, top in zip(queries, found, strict=True)]
                                            for name, found in answers.items()}},
                               ensure_ascii=False, indent=1))
    print(f"wrote {path.relative_to(PROJECT_ROOT)}; {time.monotonic() - clock:.0f} s")
    return 0


def environment(url: str, folder: Path) -> dict[str, str]:
    return {**os.environ, "ENV": "development", "DATABASE_URL": url, "REDIS_URL": "", "SECRET_KEY": random_secret(),
            "MAIL_OUTBOX": str(folder / "outbox")}


def made(database: str, postgres_url: str, folder: Path) -> str:
    """An empty database of the run's own."""
    if database == "sqlite":
        return f"sqlite:///{folder / 'search-quality.db'}"
    if database != "postgres":
        raise BenchError(f"unknown database {database!r}")
    target = make_url(normalise_database_url(postgres_url))
    admin = sa.create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{target.database}" WITH (FORCE)'))
            connection.execute(sa.text(f'CREATE DATABASE "{target.database}"'))
    except sa.exc.OperationalError as error:
        raise BenchError(f"PostgreSQL failed: {error.orig} (--databases sqlite runs without it)") from error
    finally:
        admin.dispose()
    return target.render_as_string(hide_password=False)


def dropped(database: str, url: str) -> None:
    if database != "postgres":
        return
    target = make_url(url)
    admin = sa.create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{target.database}" WITH (FORCE)'))
    admin.dispose()


def catalogue(url: str, synthetic: int, folder: Path) -> None:
    env = environment(url, folder)
    flask(env, "db", "upgrade")
    flask(env, "demo", "catalogue", "--titles", str(synthetic), "--seed", str(SEED))


def child(url: str, queries: str, out: str) -> int:
    """In a process of its own (one application per database): the real titles inserted and indexed, then every
    query asked; writes each query's first five as evaluation ids (None for a synthetic title)."""
    from app import create_app
    from app.extensions import db
    from app.models import AlternativeTitle, Content, ContentType, TitleKind

    app = create_app({"RATELIMIT_ENABLED": False})
    titles = read_jsonl(DATA / "titles.jsonl")
    rng = random.Random(34)  # a benchmark's ratings
    with app.app_context():
        types = {t.slug: t.id for t in db.session.scalars(sa.select(ContentType))}
        rows = [Content(title=t["title"], original_title=t.get("original"), year=t.get("year"),
                        content_type_id=types[t["type"]], has_multiple_episodes=t["type"] == "series", published=True,
                        kinopoisk_rating=round(rng.uniform(6.0, 8.5), 1),
                        alternative_titles=[AlternativeTitle(title=name, kind=TitleKind.INTERNATIONAL, position=place)
                                            for place, name in enumerate(t.get("also", ()))]) for t in titles]
        db.session.add_all(rows)
        db.session.commit()
        ids = {row.id: title["id"] for row, title in zip(rows, titles, strict=True)}
    said = app.test_cli_runner().invoke(args=["search", "reindex"])
    if said.exit_code:
        print(said.output, said.exception, file=sys.stderr)
        return 1
    client = app.test_client()
    found = []
    for query in read_jsonl(Path(queries)):
        response = client.get("/v2/contents/search", query_string={"query": query["query"], "pageSize": PAGE})
        if response.status_code != 200:
            print(f"{query['query']!r}: {response.status_code} {response.get_data(as_text=True)[:300]}",
                  file=sys.stderr)
            return 1
        found.append([ids.get(item["id"]) for item in response.get_json()["items"]])
    Path(out).write_text(json.dumps(found))
    return 0


def titles_of(url: str) -> list[tuple[str, str]]:
    """(title, original title or alternative title; evaluation id or "#<content id>") of every published content:
    the baseline's choices."""
    titles = read_jsonl(DATA / "titles.jsonl")
    by_row = {(t["title"], t.get("original"), t.get("year")): t["id"] for t in titles}
    engine = sa.create_engine(normalise_database_url(url))
    with engine.connect() as connection:
        rows = connection.execute(sa.text("SELECT id, title, original_title, year FROM contents WHERE published"))
        choices, owners = [], {}
        for content_id, title, original, year in rows:
            owners[content_id] = name = by_row.get((title, original, year), f"#{content_id}")
            choices += [(title, name)] + ([(original, name)] if original else [])
        others = connection.execute(sa.text("SELECT content_id, title FROM alternative_titles ORDER BY id"))
        choices += [(other, owners[content_id]) for content_id, other in others if content_id in owners]
    engine.dispose()
    return choices


def baseline(queries: list[dict[str, Any]], choices: list[tuple[str, str]]) -> list[list[str | None]]:
    from rapidfuzz import fuzz, process, utils

    names = [name for name, _ in choices]
    found = []
    for query in queries:
        top: list[str] = []
        for _name, _score, index in process.extract(query["query"], names, scorer=fuzz.WRatio,
                                                    processor=utils.default_process, limit=PAGE * 3):
            owner = choices[index][1]
            if owner not in top:
                top.append(owner)
        found.append([None if owner.startswith("#") else owner for owner in top[:PAGE]])
    return found


def scores(queries: list[dict[str, Any]], answers: dict[str, list[list[str | None]]]) -> dict[str, Any]:
    """Per kind and overall, per engine: first, top5 and none (%); and agree (%) between the two databases."""
    report: dict[str, Any] = {}
    for kind in (*KINDS, "all"):
        picked = [i for i, q in enumerate(queries) if kind in ("all", q["kind"])]
        if not picked:
            continue
        row: dict[str, Any] = {"queries": len(picked)}
        for name, found in answers.items():
            first = sum(bool(found[i]) and found[i][0] in queries[i]["expected"] for i in picked)
            top5 = sum(any(one in queries[i]["expected"] for one in found[i]) for i in picked)
            none = sum(not found[i] for i in picked)
            row[name] = {key: round(100 * value / len(picked), 1)
                         for key, value in (("first", first), ("top5", top5), ("none", none))}
        if "sqlite" in answers and "postgres" in answers:
            same = sum((answers["sqlite"][i][:1] or [""]) == (answers["postgres"][i][:1] or [""]) for i in picked)
            row["agree"] = round(100 * same / len(picked), 1)
        report[kind] = row
    return report


def table(report: dict[str, Any], titles: int, queries: int, synthetic: int) -> str:
    engines = [name for name in ("sqlite", "postgres", "baseline") if name in report["all"]]
    head = ["kind", "n", *(f"{name}: first / top 5 / none" for name in engines)]
    if "agree" in report["all"]:
        head.append("SQLite = PostgreSQL first")
    lines = [f"Search quality: {queries} queries, {titles} real titles among {synthetic:,} synthetic ones (%)", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for kind, row in report.items():
        cells = [f"**{kind}**" if kind == "all" else kind, str(row["queries"])]
        cells += [f"{row[name]['first']:.0f} / {row[name]['top5']:.0f} / {row[name]['none']:.0f}" for name in engines]
        if "agree" in row:
            cells.append(f"{row['agree']:.0f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
