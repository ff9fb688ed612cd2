"""Every command is declared once (:mod:`baccara.commands`), and both faces are made from the declaration.

For every declared command: the body takes exactly the declared parameters the body takes (by keyword);
the command line's options are the declared flags (and ``--json``), with the declared defaults and help;
the web app's API offers exactly the parameters declared for the web, by their web names; and the web app
loads neither Typer nor the command line.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys

import pytest
import typer

import baccara.commands
from baccara.cli import app as cli_app
from baccara.commands import Command

pytest.importorskip("fastapi")


def declared() -> list[Command]:
    """Every Command defined in a module of baccara.commands."""
    found = []
    for info in pkgutil.iter_modules(baccara.commands.__path__):
        module = importlib.import_module(f"baccara.commands.{info.name}")
        found += [v for k, v in vars(module).items() if isinstance(v, Command) and k.isupper()]
    return list({c.words: c for c in found}.values())


DECLARED = declared()


def click_command(words: tuple[str, ...]):
    command = typer.main.get_command(cli_app)
    for w in words:
        command = command.commands[w]  # type: ignore[attr-defined]
    return command


def leaf_commands(command=None, words: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """The words of every command of the command line that runs something (a group's own options included)."""
    command = command or typer.main.get_command(cli_app)
    subcommands = getattr(command, "commands", None)
    if subcommands is None:
        return {words}
    found = {words} if words and getattr(command, "invoke_without_command", False) else set()
    for name, sub in subcommands.items():
        found |= leaf_commands(sub, (*words, name))
    return found


#: The command line's commands that are not declared, and why: none computes a result the web app could serve.
NOT_DECLARED = {
    ("serve",),  # starts the web app itself: a server on this machine, nothing to compute or show
    ("chemin", "plot"),  # writes an image file on this machine (the web app draws its own charts)
    ("banque", "plot"),  # as chemin plot
}


def test_the_commands_the_web_app_serves_and_all_of_the_command_line_but_three_are_declared():
    from baccara.web.commands import COMMANDS, JOB_COMMANDS

    assert {c.words for c in [*COMMANDS.values(), *JOB_COMMANDS.values()]} <= {c.words for c in DECLARED}
    assert leaf_commands() - {c.words for c in DECLARED} == NOT_DECLARED
    assert {c.words for c in DECLARED} <= leaf_commands()  # and every declaration is a command of the command line


@pytest.mark.parametrize("command", DECLARED, ids=lambda c: c.cli)
def test_a_body_takes_every_declared_parameter_but_those_that_only_change_the_print(command):
    body = inspect.signature(command.function()).parameters
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in body.values())
    assert list(body) == [p.name for p in command.params if not p.shows]


@pytest.mark.parametrize("command", DECLARED, ids=lambda c: c.cli)
def test_the_command_lines_options_are_the_declaration(command):
    options = {p.name: p for p in click_command(command.words).params}
    assert set(options) == {p.name for p in command.params} | {"json_out"}
    for p in command.params:
        o = options[p.name]
        if p.argument:  # positional: named by its metavar
            assert o.param_type_name == "argument" and o.metavar == p.metavar
        else:
            flags = {*o.opts, *o.secondary_opts}
            assert {p.flag, *p.aliases, *([p.short] if p.short else [])} <= flags
        assert o.help == p.help
        if p.default is not ... and p.kind != "list":
            assert o.default == p.default
        else:
            assert o.required == (p.default is ...)


#: The backends a --workers help may name.
BACKEND_WORDS = ("threads", "processes", "dask", "gpu")


@pytest.mark.parametrize("command", [c for c in DECLARED if any(p.name == "workers" for p in c.params)],
                         ids=lambda c: c.cli)
def test_a_workers_help_names_only_the_commands_own_options_and_backends(command):
    """``-j``'s help is shared by several commands: where it names an option, the command has it; where it names a
    backend, the command's ``--backend`` offers it (``count design`` takes threads or gpu, and no --scheduler)."""
    import re

    params = {p.name: p for p in command.params}
    flags = {f for p in command.params for f in (p.flag, *p.aliases)}
    text = params["workers"].help
    assert set(re.findall(r"--[a-z][a-z-]*", text)) <= flags
    if "backend" in params:
        offered = params["backend"].help.lower()
        for word in BACKEND_WORDS:
            if word in text.lower():
                assert word in offered, f"{command.cli}: --workers names {word}, --backend does not offer it"


def test_the_apis_parameters_are_the_declarations_web_parameters():
    from fastapi.testclient import TestClient

    from baccara.web.app import create_app
    from baccara.web.commands import COMMANDS, JOB_COMMANDS

    with TestClient(create_app()) as client:
        spec = client.get("/api/openapi.json").json()["paths"]
    for routes, method, prefix in ((COMMANDS, "get", "/api/"), (JOB_COMMANDS, "post", "/api/jobs/")):
        for path, command in routes.items():
            names = {q["name"] for q in spec[prefix + path][method]["parameters"]} - {"format", "table"}
            assert names == {p.web_name for p in command.web_params()}, path


def test_the_web_app_loads_neither_typer_nor_the_command_line():
    code = ("import sys; from baccara.web.app import create_app; create_app(); "
            "print(sorted(m for m in sys.modules if m == 'typer' or m.startswith('baccara.cli')))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


@pytest.mark.parametrize("page,command", [("/punto", "edge"), ("/eor", "eor"), ("/edgesort", "edgesort"),
                                          ("/chemin", "chemin/solve"), ("/banque", "banque/solve"),
                                          ("/macao", "macao/solve"), ("/totals", "totals")])
def test_a_pages_fields_say_what_their_command_declares(client, page, command):
    import html
    import re

    from baccara.web.pages import declared

    text = client.get(page).text
    fields = re.findall(r'<input name="([^"]+)" id="f-[^"]+" value="[^"]*" placeholder="[^"]*" size="\d+" '
                        r'title="([^"]*)"', text)
    assert len(fields) >= 2
    for name, title in fields:
        assert html.unescape(title) == declared(command, name).help
    with pytest.raises(KeyError, match="declares no parameter"):
        declared(command, "no-such-field")
