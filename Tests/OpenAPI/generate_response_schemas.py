#!/usr/bin/env python3
"""Writes the JSON API's response schemas into openapi.json from real answers.

    MOMENTUM_RECORD_RESPONSES=/tmp/answers.jsonl swift test --filter MomentumServerTests
    python3 Tests/OpenAPI/generate_response_schemas.py /tmp/answers.jsonl

Every router test's JSON answer is recorded (method, path template, status, body). For
each successful (2xx) operation this infers one schema from all of its answers — types,
properties, which properties every answer had (`required`), array items — and stores it
as `components/schemas/<Operation>Response`, referenced from the operation's response.
Objects whose keys are data (ids, names, dates) rather than field names are written as
maps (`additionalProperties`). Every other object is closed (`additionalProperties:
false`), so the contract test (`OpenAPIContract.swift`), which validates every answer of
every router test against these schemas, fails when the server sends a field the
document does not name. The served copy in Sources/MomentumServer/Resources is updated
too. Hand-written schemas (anything other than a bare `{"type": "object"}`) are kept.
"""

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "openapi.json"
SERVED = ROOT / "Sources/MomentumServer/Resources/openapi.json"

# Fields whose object value is a map from data keys to values.
MAP_FIELDS = {"context", "dates", "timelines", "celebrations", "coaching", "subjects_by_id", "counts", "labels"}
DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def infer(value, field=None):
    if value is None:
        return {"type": "null"}
    if isinstance(value, bool):
        return {"type": "boolean"}
    if isinstance(value, int):
        return {"type": "integer"}
    if isinstance(value, float):
        return {"type": "integer"} if value.is_integer() else {"type": "number"}
    if isinstance(value, str):
        if DATE_TIME.match(value):
            return {"type": "string", "format": "date-time"}
        if DATE.match(value):
            return {"type": "string", "format": "date"}
        return {"type": "string"}
    if isinstance(value, list):
        items = None
        for item in value:
            items = merge(items, infer(item, field))
        return {"type": "array", "items": items or {}}
    if isinstance(value, dict):
        if field in MAP_FIELDS:
            values = None
            for item in value.values():
                values = merge(values, infer(item))
            return {"type": "object", "additionalProperties": values or {}}
        return {
            "type": "object",
            "properties": {key: infer(item, key) for key, item in sorted(value.items())},
            "required": sorted(value.keys()),
            "additionalProperties": False,
        }
    raise TypeError(type(value))


def types(schema):
    kind = schema.get("type")
    return set(kind) if isinstance(kind, list) else ({kind} if kind else set())


def merge(a, b):
    """One schema that both a and b satisfy."""
    if a is None:
        return b
    if b is None:
        return a
    if not a or not b:  # {} accepts anything
        return {}
    kinds = types(a) | types(b)
    if "integer" in kinds and "number" in kinds:
        kinds.discard("integer")
    merged = {}
    if "object" in kinds:
        if "additionalProperties" in a and "properties" not in a or "additionalProperties" in b and "properties" not in b:
            values = merge(a.get("additionalProperties") if isinstance(a.get("additionalProperties"), dict) else None,
                           b.get("additionalProperties") if isinstance(b.get("additionalProperties"), dict) else None)
            merged["additionalProperties"] = values or {}
        else:
            pa, pb = a.get("properties", {}), b.get("properties", {})
            merged["properties"] = {
                key: merge(pa.get(key), pb.get(key)) for key in sorted(set(pa) | set(pb))}
            ra = set(a.get("required", pa.keys())) if "object" in types(a) else None
            rb = set(b.get("required", pb.keys())) if "object" in types(b) else None
            required = (ra & rb) if ra is not None and rb is not None else (ra if ra is not None else rb)
            merged["required"] = sorted(required or [])
            merged["additionalProperties"] = False
    if "array" in kinds:
        merged["items"] = merge(a.get("items"), b.get("items")) or {}
    formats = {s.get("format") for s in (a, b) if "string" in types(s)}
    if "string" in kinds and len(formats) == 1 and None not in formats:
        merged["format"] = formats.pop()
    merged["type"] = sorted(kinds)[0] if len(kinds) == 1 else sorted(kinds)
    return merged


def singular(field):
    if not field:
        return field
    if field.endswith("ies"):
        return field[:-3] + "y"
    return field[:-1] if field.endswith("s") and not field.endswith("ss") else field


def collect(schema, field, bucket):
    """Every closed object schema (with at least three properties), by its property names."""
    if not isinstance(schema, dict):
        return
    properties = schema.get("properties")
    if properties is not None and len(properties) >= 3:
        bucket.setdefault(frozenset(properties), []).append((field, schema))
    for key, child in (properties or {}).items():
        collect(child, key, bucket)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            collect(schema[key], singular(field), bucket)


def cluster(keys):
    """Groups property-name sets that describe one type seen with different optional
    fields (a habit with and without `currentStreakStart`): Jaccard similarity ≥ 0.75."""
    clusters = []  # [representative set, [member keys]]
    for key in sorted(keys, key=len, reverse=True):
        for entry in clusters:
            union = entry[0] | key
            if len(entry[0] & key) / len(union) >= 0.75:
                entry[0] = union
                entry[1].append(key)
                break
        else:
            clusters.append([set(key), [key]])
    return [members for _, members in clusters]


def share(responses, schemas):
    """Moves object shapes used more than once into named components (a habit's state,
    a wallet, an unlock...), so that each is described once, with every optional field
    seen anywhere, and referenced."""
    bucket = {}
    for schema in responses.values():
        collect(schema, None, bucket)
    label_of = {}
    used = set(schemas)
    for members in cluster(bucket.keys()):
        uses = [use for key in members for use in bucket[key]]
        if len(uses) < 2:
            continue
        fields = [field for field, _ in uses if field]
        if not fields:
            continue  # only ever a whole answer: it stays under its operation's name
        base = max(sorted(set(fields)), key=fields.count)
        base = "".join(part[:1].upper() + part[1:] for part in re.split(r"[_\-]", singular(base) or base))
        label, n = base, 2
        while label in used:
            label, n = f"{base}{n}", n + 1
        used.add(label)
        merged = None
        for _, schema in uses:
            merged = merge(merged, schema)
        schemas[label] = merged
        for key in members:
            label_of[key] = label

    def replace(schema, inside=None):
        if not isinstance(schema, dict):
            return schema
        properties = schema.get("properties")
        if properties is not None:
            label = label_of.get(frozenset(properties))
            if label is not None and label != inside:
                return {"$ref": f"#/components/schemas/{label}"}
        result = dict(schema)
        if properties is not None:
            result["properties"] = {key: replace(child) for key, child in properties.items()}
        for key in ("items", "additionalProperties"):
            if isinstance(result.get(key), dict):
                result[key] = replace(result[key])
        return result

    for label in set(label_of.values()):
        schemas[label] = replace(schemas[label], inside=label)
        schemas[label]["x-generated"] = True
    return {name: replace(schema) for name, schema in responses.items()}


def name(method, path):
    words = [w for w in re.split(r"[/{}\-.]", path) if w and w != "v1"]
    return method.capitalize() + "".join(w[:1].upper() + w[1:] for w in words) + "Response"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    answers = {}
    for line in Path(sys.argv[1]).read_text().splitlines():
        record = json.loads(line)
        # The OpenAPI document describes itself by its own standard, not by inference.
        if 200 <= record["status"] < 300 and record["path"] != "/openapi.json":
            key = (record["method"].lower(), record["path"], str(record["status"]))
            answers[key] = merge(answers.get(key), infer(record["body"]))
    document = json.loads(DOCUMENT.read_text())
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for label in [label for label, schema in schemas.items() if schema.get("x-generated") is True]:
        del schemas[label]  # regenerated below
    answers = dict(zip(answers.keys(), share(dict(enumerate(answers.values())), schemas).values()))
    written = 0
    for (method, path, status), schema in sorted(answers.items()):
        operation = document["paths"].get(path, {}).get(method)
        if operation is None:
            continue
        content = operation.setdefault("responses", {}).setdefault(status, {"description": "OK"}).setdefault(
            "content", {}).setdefault("application/json", {})
        current = content.get("schema")
        if current and current != {"type": "object"} and "$ref" in current:
            target = current["$ref"].split("/")[-1]
            if not target.endswith("Response") or target not in schemas or schemas[target].get("x-generated") is not True:
                continue  # hand-written
        component = name(method, path)
        schema["x-generated"] = True
        schemas[component] = schema
        content["schema"] = {"$ref": f"#/components/schemas/{component}"}
        written += 1
    # Statuses every operation of a kind can answer: 401 and 429 for an authenticated one;
    # 403 (a cookie write without the app's header) and 409 (an idempotency conflict) for
    # an authenticated write; 404 for a decision about an unknown habit; 400 (malformed),
    # 413 (too large), 415 (not JSON) and 422 (a field at fault, a key given twice) for
    # every JSON request body.
    error = {"description": "Error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    public = {("post", "/v1/accounts"), ("post", "/v1/sessions")}
    for path, operations in document["paths"].items():
        if not path.startswith("/v1/") or path.startswith("/v1/admin/"):
            continue
        for method, operation in operations.items():
            if (method, path) in public:
                continue
            statuses = ["401", "429"] + (["403", "409"] if method in ("post", "put", "patch", "delete") else [])
            if path == "/v1/freeze-offers/decisions":
                statuses.append("404")
            for status in statuses:
                operation["responses"].setdefault(status, error)
    for path, operations in document["paths"].items():
        for operation in operations.values():
            if "application/json" in operation.get("requestBody", {}).get("content", {}):
                for status in ("400", "413", "415", "422"):
                    operation["responses"].setdefault(status, error)
    text = json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    DOCUMENT.write_text(text)
    SERVED.write_text(text)
    print(f"{written} response schemas written from {sum(1 for _ in Path(sys.argv[1]).open())} answers")


if __name__ == "__main__":
    main()
