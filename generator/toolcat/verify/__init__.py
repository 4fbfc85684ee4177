"""``toolcat verify``: hold a running MCP server to its catalog and to the tool contract.

Data flows one way, and only this room knows about live servers:

    catalog.json (toolcat.catalog.reader) --+
                                         +--> parity.py  (pure: two tool lists -> findings)
    connect.py -> session.py (tools/list) +
    session.py + probes.py / instances.py --> probe results  -> findings
    session.py + conformance.py           --> call results   -> findings
    findings.Report --> report.py (templates/verify.*.jinja) --> text | markdown | json

Everything that judges is a pure function over plain JSON values (the tools as
``tools/list`` puts them on the wire); only ``session.py`` and ``connect.py`` do I/O.
"""
