"""A page whose answer takes long says so at once: "computing", and reloads itself until the answer is there.

A page waits :data:`PATIENCE` seconds (the app's ``state.patience``) for its command's document; past that
it answers with a page that says what is being computed and for how long so far, and reloads itself.  The
computation goes on in the engine meanwhile (:class:`baccara.web.app.Engine` joins it on the next load, then
remembers the answer), so the reload shows the answer once it exists.  The API always waits for the answer.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import Request

from .commands import Command

#: Seconds a page waits for its answer before it says it is computing.
PATIENCE = 2.0
#: Seconds between reloads of a page that is computing.
RELOAD = 2


class Pending(Exception):
    """A page's answer is still being computed.

    Parameters
    ----------
    cli : str
        The command (``baccara macao solve``).
    seconds : float
        How long it has been under way.
    """

    def __init__(self, cli: str, seconds: float) -> None:
        super().__init__(cli)
        self.cli = cli
        self.seconds = seconds


async def patient(request: Request, command: Command, query: list[tuple[str, str]]) -> Any:
    """The command's document, if it comes within the app's patience.

    Parameters
    ----------
    request : Request
        The page's request (the app's engine and patience).
    command : Command
        The command.
    query : list of (str, str)
        Its parameters.

    Returns
    -------
    dict or list
        The document.

    Raises
    ------
    Pending
        Not there yet: the computation goes on.
    WebError
        Bad input.
    """
    engine = request.app.state.engine
    key = engine.key(command, query)
    if key in engine.cache:  # remembered: no wait at all
        return engine.cache[key]
    document = asyncio.ensure_future(engine.document(command, query))  # under way whatever the wait below
    try:
        return await asyncio.wait_for(asyncio.shield(document), getattr(request.app.state, "patience", PATIENCE))
    except TimeoutError:
        raise Pending(command.cli, engine.seconds(key) or 0.0) from None
