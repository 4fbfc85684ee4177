"""``toolcat init``: a starting config, CI workflow and pre-commit hook for a project."""
