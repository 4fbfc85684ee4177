"""Stage 6: write rendered files atomically, or compare them with what is on disk."""
