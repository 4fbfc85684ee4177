"""Stage 4: per-tool overrides, declared in a checked YAML file.

The override file states what a spec cannot: names, path-parameter naming,
``If-Match`` headers, create/update splits, and what a write does to omitted
fields. It is strict: every operation, tool, argument and field it names must
exist, and a split must account for every body field of its operation.
"""
