"""Validates JSON files against gdmap's schemas (Debian's python3-jsonschema).

  validate_json.py SCHEMA_DIR... -- SCHEMA_ID=FILE...

Every *.schema.json under the SCHEMA_DIRs is loaded and known by its $id, so
that a schema's $ref to another (the output schemas' common envelope)
resolves without a network. Each FILE must be one JSON document valid
against the schema whose file name (without .schema.json) is SCHEMA_ID.
Prints every failure; exits 1 when there is one, 77 (skipped) when
jsonschema is missing.
"""
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema missing: skipped")
    sys.exit(77)


def main(argv):
    split = argv.index("--")
    by_name, by_id = {}, {}
    for folder in argv[:split]:
        for path in sorted(pathlib.Path(folder).glob("*.schema.json")):
            schema = json.loads(path.read_text())
            jsonschema.Draft202012Validator.check_schema(schema)
            by_name[path.name[: -len(".schema.json")]] = schema
            by_id[schema["$id"]] = schema
    failures = 0
    for pair in argv[split + 1:]:
        name, _, file = pair.partition("=")
        if name not in by_name:
            print(f"{file}: no schema {name}")
            failures += 1
            continue
        resolver = jsonschema.RefResolver.from_schema(by_name[name], store=by_id)
        validator = jsonschema.Draft202012Validator(by_name[name], resolver=resolver)
        try:
            document = json.loads(pathlib.Path(file).read_text())
        except ValueError as e:
            print(f"{file}: not JSON: {e}")
            failures += 1
            continue
        for error in validator.iter_errors(document):
            print(f"{file}: {name}: {'/'.join(map(str, error.absolute_path))}: {error.message}"[:2000])
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
