"""Stage 3: the typed model every renderer and the check read."""
