"""Every call's examples in the OpenAPI document (issue 19): each 2xx JSON response, each JSON request body and each
query or path parameter shows an example of every property at every depth (a field's ``metadata={"example": …}``,
or a whole example on a schema, a parameter or a media type), and the example those make together is valid against
the schema it illustrates.

The document is read as a client reads it: $ref resolved, a schema that holds itself (the category tree's nodes, the
menu's entries) entered once, allOf merged, every oneOf/anyOf alternative documented but the null one (how apispec
writes a nullable nested schema), readOnly properties left out of requests and writeOnly ones out of responses."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import jsonschema_rs
import pytest

JSON = "application/json"
PARAMETER_PLACES = ("query", "path")
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
MISSING = object()  # no example here, nor anywhere below
SELF = object()  # a schema met again within itself (a tree's node): the example stops there


@pytest.fixture
def document(client) -> dict:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    return response.get_json()


def resolved(document: dict, node: dict) -> dict:
    """``node`` with its $ref followed (to the end of a chain of them)."""
    while "$ref" in node:
        target: Any = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


@dataclass(frozen=True)
class Illustrated:
    """One thing the document should illustrate: a parameter, a request body, a 2xx response."""

    label: str  # "GET /contents query genres", "POST /contents body", "GET /contents 200"
    schema: dict
    direction: str  # request or response: whether readOnly or writeOnly properties are left out
    example: Any = MISSING  # the whole example the parameter or the media type states, if it does


def illustrated(document: dict) -> Iterator[Illustrated]:
    for path, item in document["paths"].items():
        for method in METHODS:
            if method not in item:
                continue
            operation, call = item[method], f"{method.upper()} {path}"
            # an operation's parameter overrides its path's of the same name and place
            listed = [resolved(document, p) for p in (*item.get("parameters", []), *operation.get("parameters", []))]
            for (place, name), parameter in {(p["in"], p["name"]): p for p in listed}.items():
                if place in PARAMETER_PLACES:
                    yield Illustrated(f"{call} {place} {name}", parameter.get("schema", {}), "request",
                                      stated_example(parameter))
            if "requestBody" in operation:
                media = resolved(document, operation["requestBody"]).get("content", {}).get(JSON)
                if media is not None:
                    yield Illustrated(f"{call} body", media.get("schema", {}), "request", stated_example(media))
            for status, response in operation["responses"].items():
                media = resolved(document, response).get("content", {}).get(JSON)
                if status.startswith("2") and media is not None:
                    yield Illustrated(f"{call} {status}", media.get("schema", {}), "response", stated_example(media))


def stated_example(holder: dict) -> Any:
    """The example a parameter or a media type states itself: ``example``, or the first of ``examples``."""
    if "example" in holder:
        return holder["example"]
    for example in (holder.get("examples") or {}).values():
        if "value" in example:
            return example["value"]
    return MISSING


def is_null(node: dict) -> bool:
    """apispec's null alternative of a nullable nested schema (3.0: an empty nullable object; 3.1: type null)."""
    return node.get("type") == "null" or (node.get("nullable") is True and set(node) <= {"type", "nullable"})


@dataclass
class Examples:
    """Assembles the example of a schema of ``document`` from the examples on its nodes. Notes each leaf without one
    in ``missing`` (the component and the place within it, with the calls that show it) and each example stated on
    the way in ``stated`` (once per node of the document, to be checked against that node)."""

    document: dict
    missing: dict[str, set[str]] = field(default_factory=dict)
    stated: dict[int, tuple[str, dict, Any]] = field(default_factory=dict)

    def of(self, item: Illustrated) -> Any:
        if item.example is not MISSING:
            self.stated.setdefault(id(item.schema), (item.label, item.schema, item.example))
            return item.example
        hidden = "readOnly" if item.direction == "request" else "writeOnly"
        return self._example(item.schema, item.label, item.label, hidden, ())

    def _example(self, node: dict, where: str, label: str, hidden: str, within: tuple[str, ...]) -> Any:
        if "$ref" in node:
            if node["$ref"] in within:
                return SELF
            name = node["$ref"].rsplit("/", 1)[-1]
            return self._example(resolved(self.document, node), name, label, hidden, (*within, node["$ref"]))
        if "example" in node:
            self.stated.setdefault(id(node), (f"{label}: {where}", node, node["example"]))
            return node["example"]
        if "allOf" in node:
            merged: dict[str, Any] = {}
            for index, part in enumerate(node["allOf"]):
                value = self._example(part, where if len(node["allOf"]) == 1 else f"{where}.allOf[{index}]", label,
                                      hidden, within)
                if value is MISSING or value is SELF or not isinstance(value, dict):
                    return value
                merged.update(value)
            return merged
        for keyword in ("oneOf", "anyOf"):
            if keyword in node:
                alternatives = [(index, part) for index, part in enumerate(node[keyword])
                                if not is_null(resolved(self.document, part))]
                values = [self._example(part, where if len(alternatives) == 1 else f"{where}.{keyword}[{index}]",
                                        label, hidden, within) for index, part in alternatives]
                if MISSING in values:
                    return MISSING
                return next((value for value in values if value is not SELF), SELF)
        if node.get("type") == "array" and "items" in node:
            value = self._example(node["items"], f"{where}[]", label, hidden, within)
            return [] if value is SELF else value if value is MISSING else [value]
        if node.get("properties"):
            assembled: dict[str, Any] = {}
            complete = True
            for name, prop in node["properties"].items():
                if prop.get(hidden):
                    continue
                value = self._example(prop, f"{where}.{name}", label, hidden, within)
                if value is SELF and allows_null(self.document, prop):
                    value = None
                if value is MISSING:
                    complete = False
                elif value is not SELF:
                    assembled[name] = value
            return assembled if complete else MISSING
        self.missing.setdefault(where, set()).add(label)
        return MISSING


def allows_null(document: dict, node: dict) -> bool:
    node = resolved(document, node)
    return bool(node.get("nullable")) or any(is_null(resolved(document, part))
                                             for part in (*node.get("anyOf", ()), *node.get("oneOf", ())))


def json_schema(node: Any, openapi_30: bool) -> Any:
    """An OpenAPI schema as JSON Schema. 3.0's is Draft 4 give or take: ``nullable`` allows null whatever else it
    says, and ``example`` is no keyword. In either version, the Python anchors ``\\A`` and ``\\Z`` that marshmallow's
    Regexp validators carry into the document read as ``^`` and ``$`` (ECMA-262, the patterns' dialect, has neither)."""
    if not isinstance(node, dict):
        return node  # true or false
    schema = {key: value for key, value in node.items() if key != "example" and not (openapi_30 and key == "nullable")}
    for key in ("items", "additionalProperties", "not"):
        if key in node:
            schema[key] = json_schema(node[key], openapi_30)
    for key in ("allOf", "anyOf", "oneOf"):
        if key in node:
            schema[key] = [json_schema(part, openapi_30) for part in node[key]]
    if "properties" in node:
        schema["properties"] = {name: json_schema(prop, openapi_30) for name, prop in node["properties"].items()}
    if isinstance(node.get("pattern"), str):
        schema["pattern"] = re.sub(r"\\Z$", "$", re.sub(r"^\\A", "^", node["pattern"]))
    return {"anyOf": [{"type": "null"}, schema]} if openapi_30 and node.get("nullable") else schema


def errors(document: dict, schema: dict, example: Any) -> list[str]:
    """Why ``example`` is not valid against ``schema``, a node of ``document`` (its $refs into the components),
    read as the document's OpenAPI version says: 3.1's schemas are JSON Schema 2020-12, 3.0's Draft 4."""
    version = document["openapi"]
    assert version.startswith(("3.0", "3.1")), version
    validator_class = jsonschema_rs.Draft4Validator if version.startswith("3.0") else jsonschema_rs.Draft202012Validator
    components = document.get("components", {}).get("schemas", {})
    converted = {"allOf": [json_schema(schema, version.startswith("3.0"))],
                 "components": {"schemas": {name: json_schema(component, version.startswith("3.0"))
                                            for name, component in components.items()}}}
    validator = validator_class(converted, validate_formats=True)
    return [f"{'/'.join(map(str, error.instance_path)) or '(root)'}: {error.message}"
            for error in validator.iter_errors(example)]


def test_every_body_response_and_parameter_has_an_example_of_every_property(document):
    examples = Examples(document)
    items = list(illustrated(document))
    assert len(items) > 100  # the calls' parameters, bodies and responses: not an empty walk
    for item in items:
        examples.of(item)
    lines = [where if labels == {where} else  # a parameter's own schema: its label says it all
             f"{where}  (in {len(labels)}: {', '.join(sorted(labels)[:3])}{', …' if len(labels) > 3 else ''})"
             for where, labels in sorted(examples.missing.items())]
    assert not lines, "no example for:\n" + "\n".join(lines)


def test_every_example_is_valid_against_its_schema(document):
    examples = Examples(document)
    found = []
    for item in illustrated(document):
        example = examples.of(item)
        if example is not MISSING and example is not SELF:
            found += [f"{item.label}, as assembled: {error}" for error in errors(document, item.schema, example)]
    for where, node, example in examples.stated.values():  # each stated example against its own node too
        found += [f"{where}: {error}" for error in errors(document, node, example)]
    assert not found, "examples that are not valid:\n" + "\n".join(sorted(set(found)))


def test_the_walk_names_what_is_missing_ends_a_tree_and_reads_nullable():
    document = {"openapi": "3.0.3", "paths": {}, "components": {"schemas": {
        "Node": {"type": "object", "required": ["title", "children"], "additionalProperties": False, "properties": {
            "title": {"type": "string", "example": "Фильмы"},
            "url": {"type": "string"},
            "parent": {"nullable": True, "allOf": [{"$ref": "#/components/schemas/Node"}]},
            "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}}}}}
    menu = Illustrated("GET /menu 200", {"type": "array", "items": {"$ref": "#/components/schemas/Node"}},
                       "response")
    examples = Examples(document)
    assert examples.of(menu) is MISSING
    assert examples.missing == {"Node.url": {"GET /menu 200"}}

    document["components"]["schemas"]["Node"]["properties"]["url"]["example"] = "/films"
    example = Examples(document).of(menu)
    assert example == [{"title": "Фильмы", "url": "/films", "parent": None, "children": []}]
    assert errors(document, menu.schema, example) == []
    assert errors(document, menu.schema, [{"title": None, "children": []}])  # title is not nullable
    assert errors(document, menu.schema, [{"title": "Фильмы", "children": [], "extra": 1}])


def test_a_3_1_document_reads_as_json_schema_2020_12_and_python_anchors_as_ecma_ones():
    document = {"openapi": "3.1.0", "paths": {}, "components": {"schemas": {}}}
    code = {"type": ["string", "null"], "pattern": r"\A[0-9]{6}\Z"}
    assert errors(document, code, "123456") == [] and errors(document, code, None) == []
    assert errors(document, code, "12345") and errors(document, code, 123456)
