"""Stage 5: the model -> file bytes, through jinja2 templates and canonical JSON."""
