"""The API tests' shared fixtures."""

from __future__ import annotations

import pytest
import schemathesis
from flask import Flask

from tests.api import schemathesis_checks


@pytest.fixture
def api_schema(app: Flask, demo_catalogue: Flask) -> schemathesis.BaseSchema:
    """The OpenAPI document as schemathesis reads it, from the application under test
    (tests/api/schemathesis_checks.py)."""
    return schemathesis_checks.api_schema(app, demo_catalogue)
