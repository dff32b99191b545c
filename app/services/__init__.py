"""Domain rules as plain functions, testable without a request or a database."""
