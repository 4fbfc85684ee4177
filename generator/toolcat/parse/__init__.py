"""Reading bytes into plain data: JSON and YAML documents, and hand-written YAML
files checked against pydantic models. Below every stage; imports only errors."""
