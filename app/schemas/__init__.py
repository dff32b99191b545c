"""Marshmallow schemas, one module per resource family. They speak the spec's field names (camelCase)."""
