"""How much outputSchema a catalog publishes (``output_schemas:`` in the config).

exact: what the document says (the default); lenient: every property may also be null and
objects stay open, for documents that under-declare (model/lenient.py); shallow: the
documented object with its top-level properties typed and deeper levels open; none: no
outputSchema, structured results still returned (model/shallow.py). One choice per catalog.
"""

from __future__ import annotations

from typing import Literal

OutputSchemas = Literal["exact", "lenient", "shallow", "none"]
