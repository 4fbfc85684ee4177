"""Stage 1: read files, bundle relative-file ``$ref``s into one document, validate."""
