"""Tests over the real documents in ../shared (corpus and ErsatzTV)."""
