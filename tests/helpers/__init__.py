"""Shared test helpers: where the inputs live and how to run the generator."""
