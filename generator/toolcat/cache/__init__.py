"""This machine's caches of pure functions of the inputs (outside the repository).

``store``: the entries on disk; ``bundles``: parsed and bundled documents. The
outputs memo that lets ``check`` skip a run is freshness: generator/output/fresh.py.
"""
