"""The local web app of ``baccara serve``: pages and a JSON API on the same faces as the command line.

Nothing here is needed by the library or the other commands; it needs the ``web`` extra
(FastAPI, uvicorn, Jinja2).  :mod:`baccara.web.commands` runs the command line's own commands,
so that each API document is the ``--json`` document of the same inputs.
"""
