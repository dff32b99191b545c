"""The performance benchmark (`make bench`): a script, not a pytest suite; see docs/benchmarks.md."""
