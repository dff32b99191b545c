# The two commands of the README's Quick start, and a few shortcuts.
.PHONY: start test setup build

start:  ## set everything up and serve the demo on http://127.0.0.1:5000 (PORT=… changes it)
	bin/start

test:  ## every check: lint, types, jest, pytest with the browser tests
	bin/test

setup:
	bin/setup

build:
	npm run build
