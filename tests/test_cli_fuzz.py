"""Property-based fuzzing of the ``baccara`` command line (every command but ``simulate``).

The project rule: a ``baccara`` run either succeeds (exit 0) or exits 2 with
``error:`` on stderr naming the offending option -- never a traceback, a
hang, or unbounded memory.  Each example runs the command line in this
process (click's test runner: exit status, stdout and stderr apart) under a
wall-clock bound, with option values drawn from valid ones, garbage, empty,
negative, zero, huge (``10**9``, ``1e400``), ``inf``, ``nan``, fractions
(``1/0``, ``3/2``) and unicode, and with random or broken TOML bet files.
The strategies only produce inputs that a correct program answers quickly
(small decks, cheap models), so a timeout is a failure.  The inputs whose
failure would be a hang in C code or unbounded memory (exponent bombs, ranges
of a million decks, ``/dev/zero``) run the real program in a subprocess
(``python -m baccara``) under a wall-clock and an address-space bound, where
a runaway can be stopped.

Where the strategy knows an input is invalid (``--decks 0``, a duplicated rank
in ``--composition``, a payout of ``inf``, a condition no coup can meet) the
run must exit 2; where it knows every input is valid it must exit 0.

The default run is small and fixed (the fast suite stays fast).  Environment:
``BACCARA_FUZZ_EXAMPLES=N`` runs N random examples per test; ``BACCARA_FUZZ_RECORD=file.jsonl``
appends every failure to that file and goes on (a survey of the failure classes, where
hypothesis would stop at the first), and the test still fails at its end if anything was recorded;
``BACCARA_FUZZ_SHRINK=1`` shrinks failures; ``BACCARA_FUZZ_PROCESS=1`` runs every example in a
subprocess (slower, but each bounded in memory); ``BACCARA_FUZZ_TIMEOUT`` (s, default 30) and
``BACCARA_FUZZ_MEMORY_GB`` (default 3) set the bounds.  ``test_known_failure`` pins one or two cases of
every failure class found before the hardening (issue 17): each must now exit as the project rule says.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import signal
import subprocess
import sys
import threading
import traceback
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

# ---------------------------------------------------------------- running the program
SRC = Path(__file__).resolve().parent.parent / "src"
TIMEOUT_S = float(os.environ.get("BACCARA_FUZZ_TIMEOUT", "30"))
MEMORY_BYTES = int(float(os.environ.get("BACCARA_FUZZ_MEMORY_GB", "3")) * 2**30)  # a normal run peaks near 0.6 GB
EXAMPLES = int(os.environ.get("BACCARA_FUZZ_EXAMPLES", "0"))   # 0: the small default
#: Shrinking replays an example many times: not done unless asked for.
SHRINK = os.environ.get("BACCARA_FUZZ_SHRINK", "") not in ("", "0")
#: A file to append every failure to (JSON lines) instead of stopping at the first: a survey of the failure classes.
RECORD = os.environ.get("BACCARA_FUZZ_RECORD", "")
#: Run the examples in this process (the default); BACCARA_FUZZ_PROCESS=1: each in a subprocess of its own.
IN_PROCESS = os.environ.get("BACCARA_FUZZ_PROCESS", "") in ("", "0")
#: Inputs whose failure mode is a hang inside C code (an exponent bomb builds a huge integer) or unbounded
#: work or memory (a range of a million decks, ten million points): a subprocess, which a bound can stop.
NEEDS_PROCESS = re.compile(r"[eE][+-]?\d{7,}|^--decks=[^=]*\d{6,}|^--points=\s*\d{7,}|/dev/zero")
#: The failures recorded (BACCARA_FUZZ_RECORD) by the test running now.
_recorded: list[str] = []


def fuzz(default: int):
    """Hypothesis settings for one fuzz test: ``default`` examples (fixed), or BACCARA_FUZZ_EXAMPLES (random)."""
    phases = [Phase.explicit, Phase.reuse, Phase.generate] + ([Phase.shrink] if SHRINK else [])
    return settings(max_examples=EXAMPLES or default, deadline=None, derandomize=not EXAMPLES, phases=phases,
                    suppress_health_check=list(HealthCheck), database=None, print_blob=True)


def _env() -> dict[str, str]:
    env = dict(os.environ, COLUMNS="200", MPLBACKEND="Agg", PYTHONIOENCODING="utf-8", NO_COLOR="1",
               OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", NUMBA_NUM_THREADS="1")
    if (SRC / "baccara" / "__init__.py").is_file():   # a checkout; otherwise the installed package
        env["PYTHONPATH"] = os.pathsep.join([str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


@dataclass
class Run:
    args: list[str]
    rc: int | None          # None: killed at the time bound
    out: str
    err: str
    note: str = ""          # e.g. the bets file given
    cwd: Path = Path(".")

    def __str__(self) -> str:
        return (f"baccara {' '.join(map(repr, self.args))}\n{self.note}rc={self.rc}\n--- stdout (tail)\n"
                f"{self.out[-1500:]}\n--- stderr (tail)\n{self.err[-3000:]}")


class _Timeout(BaseException):
    """Raised in the main thread when an in-process run passes its time bound (not an Exception: the
    command's own handler of unexpected errors must not turn it into an exit status)."""


@lru_cache(maxsize=1)
def _command():
    """The whole command line as ``baccara`` builds it (every command registered, options named)."""
    import typer

    from baccara import cli

    command = typer.main.get_command(cli.app)
    cli._name_metavars(command)
    return command


def baccara(args: list[str], cwd: Path, note: str = "", timeout: float | None = None,
            process: bool = False) -> Run:
    """Run ``baccara args`` in ``cwd``: in this process, or (``process``, or an input that :data:`NEEDS_PROCESS`)
    in a subprocess bounded in memory."""
    if process or not IN_PROCESS or any(NEEDS_PROCESS.search(a) for a in args) \
            or threading.current_thread() is not threading.main_thread():
        return _in_subprocess(args, cwd, note, timeout)
    return _in_process(args, cwd, note, timeout)


def _in_process(args: list[str], cwd: Path, note: str, timeout: float | None) -> Run:
    from click.testing import CliRunner

    def alarm(signum, frame):
        raise _Timeout

    runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1", "MPLBACKEND": "Agg"})
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout or TIMEOUT_S)
    try:
        with contextlib.chdir(cwd):
            r = runner.invoke(_command(), args, prog_name="baccara")
        rc: int | None = r.exit_code
        out, err = r.stdout, r.stderr
        if r.exception is not None and not isinstance(r.exception, SystemExit):   # escaped the command's handler
            err += "".join(traceback.format_exception(r.exception))
    except _Timeout:
        rc, out, err = None, "", ""
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return Run(args, rc, out, err, note, Path(cwd))


def _in_subprocess(args: list[str], cwd: Path, note: str, timeout: float | None) -> Run:
    p = subprocess.Popen([sys.executable, "-m", "baccara", *args], cwd=cwd, env=_env(), stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:   # the memory bound, set from here (a preexec_fn is unsafe in threaded pytest-xdist workers)
        resource.prlimit(p.pid, resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    except ProcessLookupError:
        pass
    try:
        out, err = p.communicate(timeout=timeout or TIMEOUT_S)
        rc: int | None = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        rc = None
    return Run(args, rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), note, Path(cwd))


OPTION = re.compile(r"--[a-z][a-z0-9-]*")
FAILED_CERTIFICATE = re.compile(r"\bFAILS\b|NOT certified|\"holds\": false")


def check(run: Run, expect: str = "?") -> None:
    """The contract.  ``expect``: 'ok' (all input valid: exit 0), 'bad' (some input invalid: exit 2), '?' (either).

    With BACCARA_FUZZ_RECORD set, a failure is appended to that file and the run goes on; the test then
    fails at its end (:func:`_fail_if_recorded`)."""
    try:
        _check(run, expect)
    except AssertionError as e:
        if not RECORD:
            raise
        _recorded.append(str(e).split("\n", 1)[0])
        with open(RECORD, "a", encoding="utf-8") as f:
            f.write(json.dumps({"class": str(e).split("\n", 1)[0], "args": run.args, "note": run.note,
                                "rc": run.rc, "expect": expect,
                                "stdout": run.out[-800:], "stderr": run.err[-2000:]}, ensure_ascii=False) + "\n")


@pytest.fixture(autouse=True)
def _fail_if_recorded():
    """With BACCARA_FUZZ_RECORD set, a test whose runs recorded failures still fails (after all its examples)."""
    _recorded.clear()
    yield
    if _recorded:
        classes = sorted(set(_recorded))
        pytest.fail(f"{len(_recorded)} failure(s) recorded to {RECORD}: {', '.join(classes)}")


def _check(run: Run, expect: str) -> None:
    assert run.rc is not None, f"HANG: no answer within the time bound\n{run}"
    both = run.out + run.err
    assert "Traceback (most recent call last)" not in both, f"TRACEBACK\n{run}"
    assert "MemoryError" not in both, f"MEMORY\n{run}"
    assert run.rc in (0, 2), f"EXIT STATUS {run.rc} (not 0 or 2)\n{run}"
    if run.rc == 2:
        assert re.search(r"(?i)\berror\b", run.err), f"EXIT 2 WITHOUT 'error:' ON STDERR\n{run}"
        assert OPTION.search(run.err), f"ERROR MESSAGE NAMES NO --OPTION\n{run}"
        assert expect != "ok", f"VALID INPUT REFUSED\n{run}"
    else:
        assert not FAILED_CERTIFICATE.search(run.out), f"EXIT 0 WITH A FAILED CERTIFICATE\n{run}"
        for wrote in re.findall(r"^wrote (.*)$", run.out, re.MULTILINE):   # plots: the file named is the one written
            target = run.cwd / wrote
            assert target.exists() and not target.is_dir(), f"'wrote {wrote}' BUT NO SUCH FILE\n{run}"
        assert expect != "bad", f"INVALID INPUT ACCEPTED (exit 0)\n{run}"


# ---------------------------------------------------------------- values
#: Hostile values every option gets a share of (verdict '?': some are valid for some options, e.g. '0', '3/2').
NASTY = ["", " ", "-", "--", "abc", "1/0", "0/0", "-1", "0", "-0", "10**9", "1e400", "-1e400", "1e-400", "inf",
         "-inf", "nan", "NaN", "∞", "½", "0x10", "1_0", "+", "/", "1/", "/2", "3/2", "-3/2", "2.5", "1e3",
         str(10**9), "9" * 40, "é", "日本", "🂡", "Ⅷ", "８", "١٢", " 8 ", "8\t", "--json", "-h",
         "1e5000", "-1e5000", "1e-5000", "1e1000000000", "1e-1000000000", "9" * 5000]
unicode_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=8)


def tagged(ok: list[str] = (), bad: list[str] = (), unknown: list[str] = ()) -> st.SearchStrategy[tuple[str, str]]:
    """A value with its verdict: ('8', 'ok'), ('0', 'bad') or (random text, '?')."""
    parts = [st.sampled_from(list(ok)).map(lambda v: (v, "ok"))] if ok else []
    parts += [st.sampled_from(list(bad)).map(lambda v: (v, "bad"))] if bad else []
    parts += [st.sampled_from(list(unknown) + NASTY).map(lambda v: (v, "?")), unicode_text.map(lambda v: (v, "?"))]
    return st.one_of(parts)


def verdict(*tags: str) -> str:
    return "bad" if "bad" in tags else "ok" if all(t == "ok" for t in tags) else "?"


BAD_NUMBERS = ["", "abc", "1/0", "0/0", "inf", "-inf", "nan", "∞", "1/", "/2", "--", "é"]
RATIONAL_01_OK = ["0", "1/20", "1/25", "0.05", "3/100", "1/10", "0.0", "19/200"]
RATIONAL_01_BAD = ["1", "-1/20", "3/2", "2", "-0.01", "1e400", "10**9", str(10**9)] + BAD_NUMBERS
PAYS_OK = ["8", "9", "12", "15", "1/2", "3/2", "0.5", "40"]
PAYS_BAD = ["0", "-1", "-2", "-1/2", "1e-400", "0.0"] + BAD_NUMBERS
#: Exact but enormous: fine to refuse, fine to compute exactly -- never a traceback.
PAYS_HUGE = ["1e400", "10" + "0" * 400, str(10**9), "1e18", "1/1000000000", "1e5000", "1e-5000", "1e1000000000"]
DECKS_OK = ["1", "2", "3", "6", "8", " 6", "inf", "INF", "infinite"]
DECKS_BAD = ["0", "-1", "-8", "2.5", "1/2", "eight", "", "nan", "1e400", "0.0", "1/0"]
RANK_NAMES = ["A", "a", "1", "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "t", "J", "jack", "Q", "K",
              "king"]
RANK_OF = {n.upper(): ("A" if n.upper() in ("A", "1", "ACE") else "10" if n.upper() in ("10", "T")
                       else n.upper()[0] if n.upper() in ("JACK", "QUEEN", "KING") else n.upper())
           for n in RANK_NAMES}


# ---------------------------------------------------------------- edge / eor / bets: shoes
@st.composite
def shoe_options(draw, allow_infinite: bool = True) -> tuple[list[str], str]:
    """The shoe options of edge/eor: (argv, verdict)."""
    kind = draw(st.sampled_from(["default", "decks", "decks", "infinite", "composition", "composition", "two"]
                                if allow_infinite else ["default", "decks", "composition", "composition", "two"]))
    args: list[str] = []
    tag = "ok"
    finite_cards: dict[str, int] | None = {r: 32 for r in RANK_OF.values()}  # 8 decks by rank; None: unknown/inf
    if kind == "decks":
        ok = DECKS_OK if allow_infinite else [d for d in DECKS_OK if not d.strip().lower().startswith("inf")]
        v, tag = draw(tagged(ok, DECKS_BAD, ["10**9", str(10**9), "100", "1000000"]))
        args += [f"--decks={v}"]
        try:
            finite_cards = {r: 4 * int(v) for r in RANK_OF.values()} if tag == "ok" else None
        except ValueError:
            finite_cards = None
    elif kind == "infinite":
        args += ["--infinite"]
        finite_cards = None
    elif kind == "composition":
        v, tag, finite_cards = draw(composition())
        args += [f"--composition={v}"]
    elif kind == "two":   # two shoes at once: always an error
        args += ["--decks=2", draw(st.sampled_from(["--infinite", "--composition=4,4,4,4,4,4,4,4,4,4,4,4,4"]))]
        tag, finite_cards = "bad", None
    for opt in ("--remove", "--add"):
        if draw(st.booleans()):
            ranks = draw(st.lists(st.sampled_from(RANK_NAMES), min_size=1, max_size=4))
            if draw(st.integers(0, 4)) == 0:
                v, t = draw(tagged(bad=["X", "11", "0", "Z", "AA", "1/2"], unknown=[]))
                ranks.append(v)
                tag = verdict(tag, t)
            args.append(f"{opt}={','.join(ranks)}")
            if kind == "infinite":
                tag = "bad"
            elif finite_cards is not None and tag == "ok":
                for r in ranks:
                    finite_cards[RANK_OF[r.upper()]] += 1 if opt == "--add" else -1
                if min(finite_cards.values()) < 0 or sum(finite_cards.values()) < 6:
                    tag = "bad"   # none left to remove, or too few cards for a coup
            elif tag == "ok":
                tag = "?"
    return args, tag


@st.composite
def composition(draw) -> tuple[str, str, dict[str, int] | None]:
    """A --composition value, its verdict and (when known) its counts by rank."""
    form = draw(st.sampled_from(["pairs", "pairs", "thirteen", "ten", "nasty"]))
    if form == "pairs":
        names = draw(st.lists(st.sampled_from(RANK_NAMES), min_size=1, max_size=15))
        counts = draw(st.lists(st.integers(0, 12), min_size=len(names), max_size=len(names)))
        text = ",".join(f"{n}={c}" for n, c in zip(names, counts))
        canon = [RANK_OF[n.upper()] for n in names]
        tally = {r: 0 for r in RANK_OF.values()}
        for r, c in zip(canon, counts):
            tally[r] += c
        # a rank named twice (also as 'A' and '1') is an error, not summed; at least 6 cards for a coup
        tag = "bad" if len(set(canon)) < len(canon) or sum(counts) < 6 else "ok"
        return text, tag, tally if tag == "ok" else None
    if form == "thirteen":
        counts = draw(st.lists(st.integers(0, 8), min_size=13, max_size=13))
        tally = dict(zip(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"], counts))
        return ",".join(map(str, counts)), "ok" if sum(counts) >= 6 else "bad", tally if sum(counts) >= 6 else None
    if form == "ten":
        counts = draw(st.lists(st.integers(0, 16), min_size=10, max_size=10))
        return ",".join(map(str, counts)), "ok" if sum(counts) >= 6 else "bad", None
    v, tag = draw(tagged(bad=["", ",", "A=", "=4", "A=4,3", "A=x", "A=-4,2=40", "1,2,3", "A=4,Z=3", "A=4,A=4",
                              "A=4,1=4,2=4", "a=4,A=4,2=4", "A=2,2=3", "A=1e400,2=9", "A=1/2,2=9", "A=inf,2=9"],
                         unknown=["A=" + str(10**9), ",".join(["1000000000"] * 13), "A==4", "A=4,,2=4"]))
    return v, tag, None


def rational_option(name: str, ok: list[str], bad: list[str], unknown: list[str] = ()):
    return tagged(ok, bad, unknown).map(lambda vt: ([f"{name}={vt[0]}"], vt[1]))


@st.composite
def house_options(draw) -> tuple[list[str], str]:
    args, tags = [], []
    if draw(st.booleans()):
        a, t = draw(rational_option("--commission", RATIONAL_01_OK, RATIONAL_01_BAD))
        args, tags = args + a, tags + [t]
    for name in ("--tie-pays", "--super6-pays"):
        if draw(st.integers(0, 2)) == 0:
            a, t = draw(rational_option(name, PAYS_OK, PAYS_BAD, PAYS_HUGE))
            args, tags = args + a, tags + [t]
    return args, verdict(*tags)


# ---------------------------------------------------------------- TOML bet files
INT_FIELDS = {"margin": range(10), "player_total": range(10), "banker_total": range(10),
              "player_cards": range(2, 4), "banker_cards": range(2, 4), "total_cards": range(4, 7)}
BOOL_FIELDS = ["player_natural", "banker_natural", "natural", "player_pair", "banker_pair", "any_pair",
               "player_suited_pair", "banker_suited_pair"]
BUILTIN = ["banker", "player", "tie", "ez_banker", "dragon7", "panda8", "super6_banker", "super6", "player_pair",
           "banker_pair", "dragon_bonus_player", "dragon_bonus_banker"]


@lru_cache(maxsize=1)
def reachable_coups() -> frozenset[tuple[int, int, int, int, bool, bool]]:
    """(player total, player cards, banker total, banker cards, player pair, banker pair) of every coup
    the punto banco tableau can deal -- independent of the engine."""
    two = {((a + b) % 10, a == b) for a in range(10) for b in range(10)}   # a pair: two cards of one value
    out = set()
    for pt2, pp in two:
        for bt2, bp in two:
            if pt2 >= 8 or bt2 >= 8:
                out.add((pt2, 2, bt2, 2, pp, bp))
                continue
            for p3 in ([None] if pt2 >= 6 else range(10)):
                pt, pc = (pt2, 2) if p3 is None else ((pt2 + p3) % 10, 3)
                if p3 is None:
                    draws = bt2 <= 5
                else:
                    draws = bt2 <= 2 or (bt2 == 3 and p3 != 8) or (bt2 == 4 and 2 <= p3 <= 7) \
                        or (bt2 == 5 and 4 <= p3 <= 7) or (bt2 == 6 and p3 in (6, 7))
                for b3 in (range(10) if draws else [None]):
                    bt, bc = (bt2, 2) if b3 is None else ((bt2 + b3) % 10, 3)
                    out.add((pt, pc, bt, bc, pp, bp))
    return frozenset(out)


def coup_fields(c: tuple[int, int, int, int, bool, bool]) -> dict[str, object]:
    pt, pc, bt, bc, pp, bp = c
    pn, bn = pc == 2 and pt >= 8, bc == 2 and bt >= 8
    return {"winner": "banker" if bt > pt else "player" if pt > bt else "tie", "margin": abs(pt - bt),
            "player_total": pt, "banker_total": bt, "player_cards": pc, "banker_cards": bc, "total_cards": pc + bc,
            "player_natural": pn, "banker_natural": bn, "natural": pn or bn, "player_pair": pp, "banker_pair": bp,
            "any_pair": pp or bp, "player_suited_pair": pp, "banker_suited_pair": bp}


def can_happen(when: dict[str, list]) -> bool:
    """Does some coup meet every condition of ``when`` (values already checked for type)?"""
    for c in reachable_coups():
        f = coup_fields(c)
        if all(f[k] in vals for k, vals in when.items()):
            return True
    return False


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return {"inf": "inf", "-inf": "-inf", "nan": "nan"}.get(repr(v), repr(v))
    if isinstance(v, str):   # a JSON string is a TOML basic string, but for DEL, which TOML wants escaped
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(v, RawToml):
        return v.text
    if isinstance(v, list):
        return "[" + ", ".join(map(toml_value, v)) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def toml_key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else toml_value(k)


@dataclass(frozen=True)
class RawToml:
    """A literal written into the file as is (``1e400``, ``inf``, ``nan``): its verdict comes with it."""
    text: str


PAYS_STRATEGY = st.one_of(
    st.sampled_from([5, 11, 25, 0, -1, 1, "3/2", "0.54", "push", "lose", "19/20", 1.5, 0.5]).map(lambda v: (v, "ok")),
    st.sampled_from([-2, -3, "-3/2", "lots", "", "1/0", "inf", "nan", "-inf", True, [], {}, float("inf"),
                     float("-inf"), float("nan"), RawToml("1e400"), RawToml("-1e400"), RawToml("nan"), RawToml("+inf"),
                     -1.5]).map(lambda v: (v, "bad")),
    st.sampled_from(["1e400", 10**9, "1e-400", "10" + "0" * 400, 2**62, "1/1000000000", 1e300]).map(lambda v: (v, "?")),
)


@st.composite
def condition(draw) -> tuple[dict, str, dict | None]:
    """A 'when' table, its verdict, and its allowed values (for the reachability check) when well-typed."""
    fields = draw(st.lists(st.sampled_from(["winner", *INT_FIELDS, *BOOL_FIELDS]), max_size=3, unique=True))
    when, allowed, tag = {}, {}, "ok"
    for f in fields:
        if f == "winner":
            good = ["banker", "player", "tie", "Banker", "TIE"]
            v = draw(st.one_of(st.sampled_from(good), st.lists(st.sampled_from(good[:3]), min_size=1, max_size=3),
                               st.sampled_from(["dealer", "", 1, True, []])))
            vals = v if isinstance(v, list) else [v]
            if not vals or not all(isinstance(x, str) and x.lower() in ("banker", "player", "tie") for x in vals):
                tag = "bad"
            else:
                allowed[f] = [x.lower() for x in vals]
        elif f in INT_FIELDS:
            rng = INT_FIELDS[f]
            v = draw(st.one_of(st.sampled_from(list(rng)),
                               st.lists(st.integers(-2, 12), min_size=1, max_size=3),
                               st.sampled_from([12, -1, 10, 1, 7, 10**9, -(10**9), 2**70]),
                               st.sampled_from(["5", 5.0, True, [], "big", float("nan")])))
            vals = v if isinstance(v, list) else [v]
            if not vals or not all(isinstance(x, int) and not isinstance(x, bool) for x in vals):
                tag = "bad"
            elif not any(x in rng for x in vals):
                tag = "bad"                 # e.g. banker_total = 12, total_cards = [1, 2]: no coup can meet it
            else:
                allowed[f] = [x for x in vals if x in rng]
                if len(allowed[f]) < len(vals) and tag == "ok":
                    tag = "?"              # some listed values can never occur: refusing is fine too
        else:
            v = draw(st.one_of(st.booleans(), st.sampled_from([1, 0, "true", [True], [True, False], []])))
            if isinstance(v, list) and v and all(isinstance(x, bool) for x in v):
                allowed[f] = v
            elif isinstance(v, bool):
                allowed[f] = [v]
            else:
                tag = "bad"
        when[f] = v
    if draw(st.integers(0, 12)) == 0:
        when[draw(st.sampled_from(["nosuch", "Winner", "", "player total", "pair"]))] = 1
        tag = "bad"
    return when, tag, allowed if tag != "bad" else None


@st.composite
def bet_spec(draw, name: str) -> tuple[dict, str, bool]:
    """(table, verdict, needs ranks)."""
    if draw(st.integers(0, 20)) == 0:
        return draw(st.sampled_from([{"rules": []}, {"rule": []}, {"rules": "x"}, {"rules": [1]},
                                     {"rules": [{"when": {"natural": True}}]},
                                     {"rules": [{"when": 3, "pays": 1}]},
                                     {"rules": [{"when": {}, "pays": 1, "extra": 2}]}])), "bad", False
    spec: dict = {}
    tag = "ok"
    if draw(st.booleans()):
        spec["description"] = draw(st.one_of(unicode_text, st.sampled_from(["[bold]x[/]", "a\nb", "%s {0}"])))
    rules = []
    possible = []
    needs_ranks = False
    for _ in range(draw(st.integers(1, 3))):
        when, wtag, allowed = draw(condition())
        pays, ptag = draw(PAYS_STRATEGY)
        rule = {"when": when, "pays": pays} if when or draw(st.booleans()) else {"pays": pays}
        rules.append(rule)
        tag = verdict(tag, wtag, ptag)
        if allowed is not None:
            possible.append(can_happen(allowed))
        needs_ranks |= any(f.endswith("pair") for f in when)
    if possible and not all(possible) and tag != "bad":
        tag = "impossible"   # a rule no coup can meet: priced as a sure loss unless refused
    spec["rules"] = rules
    if draw(st.integers(0, 3)) == 0:
        other, otag = draw(PAYS_STRATEGY)
        spec["otherwise"] = other
        tag = "bad" if otag == "bad" else tag if otag == "ok" or tag in ("bad", "impossible") else "?"
    return spec, tag, needs_ranks


@st.composite
def bets_file(draw) -> tuple[str, str, list[str], bool]:
    """(TOML text, verdict, bet names, needs ranks)."""
    names = draw(st.lists(st.one_of(st.from_regex(r"\A[a-z][a-z0-9_]{0,7}\Z"),
                                    st.sampled_from(["big", "my-bet", "x1", "bad name", "é", "", "a.b", "banker",
                                                     "dragon7"])),
                          min_size=0, max_size=3, unique=True))
    tags, docs, needs = [], [], False
    for n in names:
        spec, t, r = draw(bet_spec(n))
        ok_name = bool(n) and all(ch.isalnum() or ch in "_-" for ch in n) and n not in BUILTIN
        tags.append(t if ok_name else "bad")
        docs.append((n, spec))
        needs |= r
    lines = []
    style = draw(st.sampled_from(["tables", "inline"]))
    for n, spec in docs:
        if style == "tables":
            lines.append(f"[bets.{toml_key(n)}]")
            lines += [f"{toml_key(k)} = {toml_value(v)}" for k, v in spec.items()]
        else:
            lines.append(f"bets.{toml_key(n)} = {toml_value(spec)}")
    text = "\n".join(lines) + "\n"
    tag = "bad" if not names or "bad" in tags else "impossible" if "impossible" in tags else \
        "ok" if all(t == "ok" for t in tags) else "?"
    if draw(st.integers(0, 5)) == 0:   # break the file: cut it, or splice in junk
        junk = draw(st.sampled_from(["[", "]]", "=", "\"", "\\", "\x00", "\x7f", "[[bets]]", "bets = 1", "\ufeff",
                                     "pays = 1e400", "{", "[bets.x]\n[bets.x]"]))
        at = draw(st.integers(0, len(text)))
        text = text[:at] + junk + text[at:] if draw(st.booleans()) else text[:at]
        tag = "?"
    if draw(st.integers(0, 10)) == 0:
        text = draw(st.sampled_from(["", "this is not toml", "[bets]", "bets = 3", "[other]\nx = 1", "\ufeff[bets.a]",
                                     "[bets.a]\nrules = [ { pays = 1 } ]\n[bets.a]\n", "x = " + "[" * 5000 + "]" * 5000,
                                     "[bets.a]\nrules = [ { pays = \"1e5000\" } ]\n"]))
        tag = "?" if text.startswith(("\ufeff", "[bets.a]\nrules")) else "bad"
    return text, tag, names, needs


def expect_for_bets(tag: str) -> str:
    return "bad" if tag in ("bad", "impossible") else tag


# ---------------------------------------------------------------- the tests: punto banco
@fuzz(4)
@given(shoe=shoe_options(), house=house_options(), fmt=st.sampled_from([[], ["--json"], ["--exact"]]))
def test_edge(tmp_path_factory, shoe, house, fmt):
    (sa, st_), (ha, ht) = shoe, house
    check(baccara(["edge", *sa, *ha, *fmt], tmp_path_factory.mktemp("edge")), verdict(st_, ht))


@fuzz(3)
@given(shoe=shoe_options(allow_infinite=False), house=house_options(),
       bet=tagged(BUILTIN, ["nosuchbet", "Banker", "banker ", ""]), fmt=st.sampled_from([[], ["--json"]]))
def test_eor(tmp_path_factory, shoe, house, bet, fmt):
    (sa, st_), (ha, ht), (b, bt) = shoe, house, bet
    if any(a.startswith("--composition") for a in sa) and b in ("player_pair", "banker_pair"):
        bt = "?"   # a composition by value cannot price pair bets
    check(baccara(["eor", f"--bet={b}", *sa, *ha, *fmt], tmp_path_factory.mktemp("eor")), verdict(st_, ht, bt))


@fuzz(2)
@given(house=house_options(), extra=st.sampled_from([[], ["--bets=/nonexistent/x.toml"], ["--bets="], ["--bets=."]]))
def test_bets_list(tmp_path_factory, house, extra):
    ha, ht = house
    check(baccara(["bets", *ha, *extra], tmp_path_factory.mktemp("bets")), "bad" if extra else ht)


@fuzz(4)
@given(doc=bets_file(), cmd=st.sampled_from(["bets", "edge-inf", "edge-1", "edge-value"]))
def test_bets_file(tmp_path_factory, doc, cmd):
    text, tag, _names, needs_ranks = doc
    d = tmp_path_factory.mktemp("betsfile")
    f = d / "bets.toml"
    f.write_bytes(text.encode("utf-8", "surrogatepass"))
    shoe = {"bets": [], "edge-inf": ["--infinite", "--json"], "edge-1": ["--decks=1", "--json"],
            "edge-value": ["--composition=16,4,4,4,4,4,4,4,4,4"]}[cmd]
    expect = expect_for_bets(tag)
    if cmd == "edge-value" and needs_ranks and expect == "ok":
        expect = "bad"   # a pair needs a shoe known by rank
    check(baccara([cmd.split("-")[0], *shoe, f"--bets={f}"], d, f"--- bets.toml\n{text}\n"), expect)


def test_fields_bertrand_and_unknown_names(tmp_path):
    for args in (["fields"], ["bertrand", "--json"], ["fields", "--json"], ["edge", "--nosuch"], ["chemin", "nosuch"]):
        check(baccara(args, tmp_path), "ok" if len(args) == 1 or args[0] == "bertrand" else "?")


# ---------------------------------------------------------------- chemin de fer
MODELS_OK = ["A1", "A2", "B1", "B2", "b2", " B1"]
MODELS_BAD = ["C1", "B4", "A0", "", "B", "2", "BB2", "B2 B1", "nan"]
CHEMIN_DECKS_OK = ["1", "2", "6", "8", "inf"]
CHEMIN_DECKS_BAD = ["0", "-1", "2.5", "1/2", "", "six", "nan", "1e400", "-inf"]


@st.composite
def model_and_decks(draw, model3: bool) -> tuple[list[str], str]:
    m, mt = draw(tagged(MODELS_OK + (["A3", "B3"] if model3 else []), MODELS_BAD + ([] if model3 else ["A3", "B3"])))
    d, dt = draw(tagged(CHEMIN_DECKS_OK, CHEMIN_DECKS_BAD, ["10**9", str(10**9), "1000"]))
    args = []
    if draw(st.integers(0, 4)):
        args.append(f"--model={m}")
    else:
        m, mt = "B2", "ok"
    if draw(st.integers(0, 4)):
        args.append(f"--decks={d}")
    else:
        dt = "ok"
    if d.strip() in ("1000", "10**9", str(10**9)) and m.strip().upper().endswith("3"):
        dt = "?"
    return args, verdict(mt, dt)


@fuzz(3)
@given(md=model_and_decks(model3=True), alpha=tagged(RATIONAL_01_OK, RATIONAL_01_BAD),
       flags=st.sampled_from([[], ["--json"], ["--all-equilibria"]]))
def test_chemin_solve(tmp_path_factory, md, alpha, flags):
    (ma, mt), (a, at) = md, alpha
    if "--all-equilibria" in flags and any(x.strip().upper().endswith("3") for x in ma):
        assume(any(x in ("--decks=1", "--decks=2", "--decks=6") for x in ma))   # keep Model 3 enumerations small
    check(baccara(["chemin", "solve", *ma, f"--commission={a}", *flags], tmp_path_factory.mktemp("cs")),
          verdict(mt, at))


@fuzz(3)
@given(md=model_and_decks(model3=False), lo=tagged(RATIONAL_01_OK, RATIONAL_01_BAD),
       hi=tagged(RATIONAL_01_OK, RATIONAL_01_BAD), flags=st.sampled_from([[], ["--json"]]))
def test_chemin_sweep(tmp_path_factory, md, lo, hi, flags):
    (ma, mt), (a, at), (b, bt) = md, lo, hi
    tag = verdict(mt, at, bt)
    if tag == "ok" and Fraction(a) >= Fraction(b):
        tag = "bad"
    check(baccara(["chemin", "sweep", *ma, f"--from={a}", f"--to={b}", *flags], tmp_path_factory.mktemp("cw")), tag)


DECK_RANGES_OK = ["1", "1-3", "2,4", "5-6", "inf", "1,inf", "3-3", " 1 - 2 "]
DECK_RANGES_BAD = ["0", "0-3", "3-1", "-1", "1-", "-", "", ",", "a-b", "1-2-3", "1.5", "1/2", "nan", "inf-3",
                   "1-inf", "1e400"]
#: Wide ranges: refuse them, or answer within the time bound -- never run for hours.
DECK_RANGES_HUGE = ["1-1000000", "1-" + str(10**9), "1-" + "9" * 30, "999999-1000000", str(10**9), "1-100000"]


@fuzz(3)
@given(decks=tagged(DECK_RANGES_OK, DECK_RANGES_BAD, DECK_RANGES_HUGE),
       cmd=st.sampled_from([["table4"], ["table4", "--json"], ["table5"], ["table7", "--no-confirm"],
                            ["table7", "--no-confirm", "--json"]]))
def test_chemin_tables_by_decks(tmp_path_factory, decks, cmd):
    d, tag = decks
    if cmd[0] != "table4" and d.strip() == "inf":
        tag = "bad"        # table5 and table7 need a finite d
    if cmd[0] == "table7" and tag == "ok":
        d = {"5-6": "1", "1-3": "1-2"}.get(d, d)   # Model B3 sweeps cost seconds per d
    check(baccara(["chemin", *cmd, f"--decks={d}"], tmp_path_factory.mktemp("ct")), tag)


@fuzz(3)
@given(md=model_and_decks(model3=False), alpha=tagged(RATIONAL_01_OK, RATIONAL_01_BAD),
       p=tagged(["0", "1", "1/2", "9/11", "0.3"], ["-1", "2", "3/2", "1.0001"] + BAD_NUMBERS),
       cmd=st.sampled_from(["table", "table1"]))
def test_chemin_table(tmp_path_factory, md, alpha, p, cmd):
    (ma, mt), (a, at), (pv, pt) = md, alpha, p
    args = ["chemin", cmd, *ma]
    tags = [mt]
    if cmd == "table":
        args += [f"--commission={a}", f"--p={pv}"]
        tags += [at, pt]
    check(baccara(args, tmp_path_factory.mktemp("cb")), verdict(*tags))


OUT_OK = ["out.png", "out.svg", "out.pdf", "dir/x.png", "é.png", "a b.png", "x.PNG"]
OUT_BAD = ["", "/nonexistent/dir/x.png", ".", "x.nosuchformat", "dir/", "dir", "nodir/x.png", "x" * 300 + ".png"]
#: (never "/": a plot that appends '.png' to it writes /.png)
OUT_UNKNOWN = ["x", "-", "x.png.", "/dev/null", ".png", "dir/../y.png", "nodir/../y.png"]
#: --out values: nothing outside the example's folder (a buggy plot may write what it is given, plus '.png')
OUT = tagged(OUT_OK, OUT_BAD, OUT_UNKNOWN).filter(lambda vt: vt[0] == "/dev/null" or not (
    vt[0].startswith(("/", "~")) and not vt[0].startswith("/nonexistent/") or ".." in vt[0].replace("dir/../", "")))


@fuzz(2)
@given(md=model_and_decks(model3=False), out=OUT)
def test_chemin_plot(tmp_path_factory, md, out):
    (ma, mt), (o, ot) = md, out
    d = tmp_path_factory.mktemp("cp")
    (d / "dir").mkdir()
    check(baccara(["chemin", "plot", *ma, f"--out={o}"], d), verdict(mt, ot))


# ---------------------------------------------------------------- baccara banque
THETA_OK = ["1/2", "3/10", "1/10", "0.25", "9/20", "7/10", "1/3"]
THETA_BAD = ["0", "1", "-1/2", "3/2", "2"] + BAD_NUMBERS
#: Extreme but valid thetas: solve quickly with a certificate that holds, or refuse clearly.
THETA_EDGE = ["1/10000", "1/1000", "9999/10000", "1e-9", "1/" + str(10**9), "0.000001", "1/100", "99/100"]


@fuzz(3)
@given(theta=tagged(THETA_OK, THETA_BAD, THETA_EDGE),
       concept=tagged(["correlated", "independent", "nash"], ["", "Nash", "cooperative", "nash "]),
       model=tagged(["simplified"], ["", "full", "Simplified"], ["traditional", "recent"]),
       fmt=st.sampled_from([[], ["--json"]]))
def test_banque_solve(tmp_path_factory, theta, concept, model, fmt):
    (t, tt), (c, ct), (m, mt) = theta, concept, model
    if c == "independent":
        assume(t not in ("1/10000", "9999/10000"))   # valid, but over 20 s each (1/1000 and 1/100000: 4-5 s)
    tag = verdict(tt, ct, mt)
    if m in ("traditional", "recent") and c != "correlated" and "bad" not in (tt, ct):
        tag = "bad"
    check(baccara(["banque", "solve", f"--theta={t}", f"--concept={c}", f"--model={m}", *fmt],
                  tmp_path_factory.mktemp("bs")), tag)


@fuzz(2)
@given(figure=tagged(["2", "3"], ["0", "5", "-1", "x", "", "1.5", "1e400"]),
       points=tagged(["2", "3", "10"], ["1", "0", "-5", "x", "", "2.5", "nan"], ["10000000", str(10**9), "9" * 30]),
       out=OUT)
def test_banque_plot(tmp_path_factory, figure, points, out):
    (f, ft), (n, nt), (o, ot) = figure, points, out
    try:
        assume(int(f) not in (1, 4))   # figures 1 and 4 are the paper's sweeps (minutes) whatever --points says
    except ValueError:
        pass
    d = tmp_path_factory.mktemp("bp")
    (d / "dir").mkdir()
    check(baccara(["banque", "plot", f"--figure={f}", f"--points={n}", f"--out={o}"], d), verdict(ft, nt, ot))


def test_banque_sweep_and_advantage_bad_options(tmp_path):
    # valid runs of these are the paper's sweeps (minutes): only their refusals are fuzzed
    for args in (["banque", "sweep", "--concept="], ["banque", "sweep", "--concept=Nash"],
                 ["banque", "sweep", "--concept=1/0"], ["banque", "advantage", "--theta=0"],
                 ["banque", "advantage", "--theta=x"], ["banque", "advantage", "--decks=20"]):
        check(baccara(args, tmp_path), "bad")


# ---------------------------------------------------------------- the failure classes found, one or two cases each
# Found by the fuzz tests above and by hand before the hardening; each failed then (``reason`` says how) and
# must pass now: a regression is a failure.  Hang cases get a short bound (the right answer is a quick refusal).
def B(pays="5", when="natural = true", extra=""):
    return f"[bets.x]\nrules = [ {{ when = {{ {when} }}, pays = {pays} }} ]\n{extra}"


@dataclass(frozen=True)
class Known:
    id: str
    args: tuple[str, ...]
    reason: str
    expect: str = "bad"
    toml: str | None = None      # written to bets.toml; '{bets}' in args is its path
    timeout: float = 30
    slow: bool = False
    process: bool = False        # a hang or unbounded memory when it fails: run in a bounded subprocess


TRACE_FLOAT = "traceback: ValueError 'Invalid literal for Fraction' (a TOML float inf/nan payout)"
TRACE_OVERFLOW = "traceback: OverflowError 'integer division result too large for a float' (exact but huge payout)"
TRACE_DIGITS = "traceback: ValueError 'Exceeds the limit (4300 digits) for integer string conversion'"
FAILS = "exit 0 printing 'certificate FAILS'"
KNOWN = [
    Known("bets-pays-inf", ("edge", "--infinite", "--bets={bets}"), TRACE_FLOAT, toml=B("inf")),
    Known("bets-pays-nan", ("bets", "--bets={bets}"), TRACE_FLOAT + " (also in 'bets')", toml=B("nan")),
    Known("bets-pays-1e400-float", ("edge", "--decks=1", "--bets={bets}"), TRACE_FLOAT + " (1e400 reads as inf)",
          toml=B("1e400")),
    Known("bets-otherwise-nan", ("edge", "--infinite", "--bets={bets}"), TRACE_FLOAT,
          toml=B("1", extra="otherwise = nan\n")),
    Known("bets-pays-1e400-string", ("edge", "--decks=1", "--bets={bets}"), TRACE_OVERFLOW, "?", B('"1e400"')),
    Known("bets-pays-1e300", ("edge", "--decks=1", "--bets={bets}"), TRACE_OVERFLOW, "?", B("1e300")),
    Known("tie-pays-1e400", ("edge", "--decks=8", "--tie-pays=1e400"), TRACE_OVERFLOW, "?"),
    Known("super6-pays-1e400-eor", ("eor", "--bet=super6", "--decks=1", "--super6-pays=1e400"), TRACE_OVERFLOW, "?"),
    Known("bets-condition-2**70", ("edge", "--infinite", "--bets={bets}"),
          "traceback: OverflowError 'Python int too large to convert to C long'",
          toml=B(when=f"banker_total = {2**70}")),
    Known("bets-deep-nesting", ("bets", "--bets={bets}"), "traceback: RecursionError in tomllib (not caught)",
          toml="x = " + "[" * 20000 + "]" * 20000 + "\n"),
    Known("commission-1e5000", ("edge", "--decks=1", "--commission=1e5000"), TRACE_DIGITS + " (bets.banker)"),
    Known("tie-pays-1e-5000", ("bets", "--tie-pays=1e-5000"), TRACE_DIGITS + " (bets.tie)", "?"),
    Known("theta-1e5000", ("banque", "solve", "--theta=1e5000"), TRACE_DIGITS + " (cli.banque_solve)"),
    Known("p-1e5000", ("chemin", "table", "--p=1e5000"), TRACE_DIGITS + " (cli.chemin_table)"),
    Known("from-1e-5000", ("chemin", "sweep", "--from=1e-5000", "--to=1/10"), TRACE_DIGITS + " (to_json)", "?"),
    Known("composition-duplicate", ("edge", "--composition=A=4,A=4"), "duplicated rank silently summed (exit 0)"),
    Known("composition-alias-duplicate", ("edge", "--composition=A=4,1=4,2=4,3=4"),
          "rank named twice (A and its alias 1) silently summed (exit 0)"),
    Known("bets-impossible-total", ("edge", "--decks=8", "--bets={bets}"),
          "a condition no coup can meet (banker_total = 12) priced as a sure loss (exit 0)",
          toml=B(when="banker_total = 12")),
    Known("bets-impossible-cards", ("bets", "--bets={bets}"),
          "a condition no coup can meet (total_cards = [1, 2]) accepted (exit 0)", toml=B(when="total_cards = [1, 2]")),
    Known("bets-impossible-jointly", ("edge", "--infinite", "--bets={bets}"),
          "a condition no coup can meet (a three-card natural) priced as a sure loss (exit 0)",
          toml=B(when="player_natural = true, player_cards = 3")),
    Known("chemin-plot-out-empty", ("chemin", "plot", "--out="), "exit 0: writes ./.png and prints 'wrote .'"),
    Known("chemin-plot-out-directory", ("chemin", "plot", "--out=dir"),
          "exit 0: an existing directory as --out writes dir.png and prints 'wrote dir'"),
    Known("banque-plot-out-no-suffix", ("banque", "plot", "--figure=2", "--points=2", "--out=x"),
          "exit 0: writes x.png but prints 'wrote x'", "?"),
    Known("table4-decks-1e6", ("chemin", "table4", "--decks=1-1000000"), "runs without limit (a million sweeps)",
          timeout=10, process=True),
    Known("table7-decks-1e6", ("chemin", "table7", "--no-confirm", "--decks=1-1000000"), "runs without limit",
          timeout=10, process=True),
    Known("table5-decks-1e9", ("chemin", "table5", "--decks=1-1000000000"),
          "traceback: MemoryError (the range is listed; unbounded memory without a limit)", process=True),
    Known("table4-decks-1e30", ("chemin", "table4", "--decks=1-" + "9" * 30),
          "traceback: OverflowError 'Python int too large to convert to C ssize_t'"),
    Known("banque-plot-points-1e7", ("banque", "plot", "--figure=3", f"--points={10**7}", "--out=x.png"),
          "runs without limit (ten million theta values)", timeout=10, process=True),
    Known("exponent-bomb-tie-pays", ("edge", "--decks=1", "--tie-pays=1e1000000000"),
          "hangs: '1e1000000000' builds 10**1000000000 exactly", "?", timeout=10, process=True),
    Known("exponent-bomb-theta", ("banque", "solve", "--theta=1e-1000000000"), "hangs building 10**-1000000000", "?",
          timeout=10, process=True),
    Known("banque-theta-1/10000", ("banque", "solve", "--theta=1/10000"), FAILS, "ok"),
    Known("banque-theta-1e-9", ("banque", "solve", "--theta=1e-9"), FAILS, "ok"),
    Known("banque-recent-theta-1/10000", ("banque", "solve", "--model=recent", "--theta=1/10000"), FAILS, "ok"),
    Known("banque-recent-theta-1e-9", ("banque", "solve", "--model=recent", "--theta=1e-9"),
          "traceback: ArithmeticError 'column generation stalled'", "ok"),
    Known("bets-dev-zero", ("bets", "--bets=/dev/zero"), "reads forever: MemoryError traceback (unbounded memory)",
          timeout=20, process=True),
    Known("message-names-no-option-bets", ("bets", "--bets=/nonexistent/x.toml"),
          "error names the file, not --bets (all bets-file errors)"),
    Known("message-names-no-option-model", ("chemin", "solve", "--model=B4"),
          "error: model must be one of ... (no --model)"),
    Known("message-names-no-option-tie", ("edge", "--tie-pays=0"), "error: tie pays must be positive (no --tie-pays)"),
    Known("message-names-no-option-remove", ("edge", "--decks=1", "--remove=A,A,A,A,A"),
          "error: cannot remove A: none left in the shoe (no --remove)"),
    Known("message-names-no-option-composition", ("edge", "--composition=A=5"),
          "error: a shoe needs at least 6 cards (no --composition)"),
]


@pytest.mark.parametrize("k", [pytest.param(k, id=k.id, marks=[pytest.mark.slow] if k.slow else []) for k in KNOWN])
def test_known_failure(tmp_path, k):
    (tmp_path / "dir").mkdir()
    note = ""
    if k.toml is not None:
        (tmp_path / "bets.toml").write_text(k.toml, encoding="utf-8")
        note = f"--- bets.toml\n{k.toml[:2000]}\n"
    args = [a.replace("{bets}", str(tmp_path / "bets.toml")) for a in k.args]
    check(baccara(args, tmp_path, note, timeout=k.timeout, process=k.process), k.expect)
