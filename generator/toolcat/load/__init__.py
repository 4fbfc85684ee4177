"""Stage 1: bundle relative-file ``$ref``s into one document (read by generator/parse),
convert Swagger 2.0, validate (generator/load/validation)."""
