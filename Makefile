# The two commands of the README's Quick start, and a few shortcuts.
.PHONY: start test check setup build bench bench-auth bench-catalogue bench-progress bench-search

start:  ## set everything up and serve the demo on http://127.0.0.1:5000 (PORT=… changes it)
	bin/start

test:  ## every check: lint, types, jest, pytest with the browser tests
	bin/test

check:  ## the quick loop: lint, types, jest, pytest without the browser tests
	bin/check

setup:
	bin/setup

build:
	npm run build

bench:  ## measure the player against a static page and a bare hls.js page in Chromium (ARGS="--rounds 3")
	bin/bench $(ARGS)

bench-auth:  ## time sign-in, refresh, an authenticated and an anonymous read on gunicorn (ARGS="--rounds 3")
	bin/bench-auth $(ARGS)

bench-catalogue:  ## time search, lists and reads on 100,000 titles (SQLite, PostgreSQL) against /healthz (ARGS="--databases sqlite")
	bin/bench-catalogue $(ARGS)

bench-search:  ## search quality by kind of query on real titles among 20,000 synthetic ones, both databases, against a fuzzy match (ARGS="--databases sqlite")
	bin/bench-search $(ARGS)

bench-progress:  ## progress saves from many viewers against /healthz on the production shape (ARGS="--rounds 5")
	bin/bench-progress $(ARGS)
