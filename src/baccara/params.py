"""Parameters, parsed and checked once.

Every number a user gives baccara — a commission, a payout, theta, a count
of decks or shoes — goes through one of these functions, from the command
line and from the library alike, so that one rule holds everywhere:

- exact numbers are rationals: ``"19/20"``, ``"0.95"``, ``"5%"``, ``1``, a
  :class:`~fractions.Fraction`; a float is read as the decimal it prints
  (``0.05`` is 1/20, never the binary fraction 3602879701896397/2^56);
- ``nan``, ``inf``, booleans and numbers too large to be meant are refused;
- a value outside its range raises :class:`~baccara.errors.BaccaraError`
  whose message names the parameter and the range it allows.

The ``name`` argument is how the parameter is named in the message: the
library passes its argument name (``"commission"``), the command line its
flag (``"--commission"``).
"""

from __future__ import annotations

import math
import numbers
import os
import re
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal, overload

from .errors import BaccaraError
from .shoe import Shoe

#: Most decimal digits accepted in the numerator or denominator of an exact
#: parameter: beyond this an input is a typing slip, and exact arithmetic on
#: it would only be slow.
MAX_DIGITS = 60


_EXPONENT = re.compile(r"[eE]([+-]?\d+)")
_TOO_LARGE_EXPONENT = f"exponents from -{MAX_DIGITS} to {MAX_DIGITS} only"
_NOT_ASCII = "digits other than 0-9"
#: Reasons :func:`_fraction` gives that the message repeats.
_REASONS = (_TOO_LARGE_EXPONENT, _NOT_ASCII)


def _fraction(text: str) -> Fraction:
    """``Fraction(text)``, refusing exponents that would build numbers of more than MAX_DIGITS digits,
    and digits other than 0-9 (Python reads Arabic-Indic or full-width digits as numbers too)."""
    if not text.isascii():
        raise ValueError(_NOT_ASCII)
    for m in _EXPONENT.finditer(text):
        if abs(int(m.group(1))) > MAX_DIGITS:
            raise ValueError(_TOO_LARGE_EXPONENT)
    return Fraction(text)


def _interval(lo: Fraction | int | None, hi: Fraction | int | None, lo_open: bool, hi_open: bool) -> str:
    lo_s, hi_s = (number_text(int(x)) if x is not None and Fraction(x).denominator == 1 else x for x in (lo, hi))
    if lo_s is not None and hi_s is not None:
        return f"in {'(' if lo_open else '['}{lo_s}, {hi_s}{')' if hi_open else ']'}"
    if lo_s is not None:
        return f"{'above' if lo_open else 'at least'} {lo_s}"
    if hi_s is not None:
        return f"{'below' if hi_open else 'at most'} {hi_s}"
    return "a number"


def rational(value: Any, name: str, *, lo: Fraction | int | None = None, hi: Fraction | int | None = None,
             lo_open: bool = False, hi_open: bool = False, describe: str | None = None,
             what: str | None = None, example: str = "1/20, 0.05 or 5%") -> Fraction:
    """An exact rational parameter, checked against its range.

    Parameters
    ----------
    value : int, Fraction, float or str
        ``"19/20"``, ``"0.95"``, ``"1e-3"``, ``"5%"``, an integer, a Fraction,
        or a float (read as the decimal it prints: ``0.05`` is 1/20).
    name : str
        The parameter's name, used in the error message.
    lo, hi : Fraction or int, optional
        Bounds of the allowed range (none by default).
    lo_open, hi_open : bool
        Whether the bound itself is excluded.
    describe : str, optional
        The allowed range in words, for the message (default: the interval).
    what : str, optional
        What the value is, for the message (``"a probability"``): ``name must be
        a probability in [0, 1]``.
    example : str
        Examples of the value, for the message when it is not a number at all.

    Returns
    -------
    Fraction
        The exact value.

    Raises
    ------
    BaccaraError
        For anything that is not a finite number of reasonable size, or a
        value outside the range; the message names ``name`` and the range.
    """
    allowed = describe or _interval(lo, hi, lo_open, hi_open)
    given = value if isinstance(value, str) else str(value)

    def bad(why: str = "") -> BaccaraError:
        rng = f", {allowed}" if lo is not None or hi is not None else ""
        return BaccaraError(f"{name} must be a number such as {example}{rng}{why}, got {given!r}")

    def outside() -> BaccaraError:
        return BaccaraError(f"{name} must be {what + ' ' if what else ''}{allowed}, got {given}")

    if isinstance(value, bool) or value is None:
        raise bad()
    if isinstance(value, Fraction):
        x = value
    elif isinstance(value, numbers.Integral):
        x = Fraction(int(value))
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise bad()
        x = Fraction(repr(value))
    elif isinstance(value, str):
        text = value.strip().replace("_", "")
        scale = Fraction(1)
        if text.endswith("%"):
            text, scale = text[:-1].strip(), Fraction(1, 100)
        if len(text) > 3 * MAX_DIGITS:
            raise bad(f" (at most {MAX_DIGITS} digits)")
        try:
            x = _fraction(text) * scale
        except ValueError as e:
            raise bad(f" ({e})" if str(e) in _REASONS else "") from None
        except ZeroDivisionError:
            raise bad() from None
    else:
        raise bad()
    top, bottom = len(str(abs(x.numerator))), len(str(x.denominator))
    if top > MAX_DIGITS or bottom > MAX_DIGITS:
        raise BaccaraError(f"{name} must be a number of at most {MAX_DIGITS} digits above and below the fraction "
                           f"bar (from 1e-{MAX_DIGITS - 1} to 1e{MAX_DIGITS - 1} for powers of ten), got {given!r}, "
                           f"whose exact value has {top} and {bottom}")
    if lo is not None and (x < lo or (lo_open and x == lo)):
        raise outside()
    if hi is not None and (x > hi or (hi_open and x == hi)):
        raise outside()
    return x


def number_text(n: int) -> str:
    """A whole number for people: ``10,000``; a power of ten from 10^6 up as ``10^15``.

    Parameters
    ----------
    n : int
        The number.

    Returns
    -------
    str
        Its text.
    """
    if n >= 10**6 and 10 ** (len(str(n)) - 1) == n:
        return f"10^{len(str(n)) - 1}"
    return f"{n:,}"


def integer(value: Any, name: str, *, lo: int | None = None, hi: int | None = None) -> int:
    """A whole-number parameter: ``12``, ``"1_000_000"`` or ``"1e6"``.

    Parameters
    ----------
    value : int, float or str
        The value as given.
    name : str
        The parameter's name, used in the error message.
    lo, hi : int, optional
        The allowed range (inclusive).

    Returns
    -------
    int
        The value.

    Raises
    ------
    BaccaraError
        When ``value`` is not a whole number in range.
    """
    if lo is not None and hi is not None:
        kind = f"a whole number from {number_text(lo)} to {number_text(hi)}"
    elif lo is not None:
        kind = {0: "a non-negative whole number", 1: "a positive whole number"}.get(lo, f"a whole number, at least "
                                                                                        f"{number_text(lo)}")
    elif hi is not None:
        kind = f"a whole number, at most {number_text(hi)}"
    else:
        kind = "a whole number"

    def bad() -> BaccaraError:
        return BaccaraError(f"{name} must be {kind}, got {value!r}")

    if isinstance(value, bool) or value is None:
        raise bad()
    if isinstance(value, numbers.Integral):
        n = int(value)
    else:
        text = str(value).strip().replace("_", "")
        if len(text) > 3 * MAX_DIGITS or not text.isascii():  # int() reads Arabic-Indic digits too
            raise bad()
        try:
            n = int(text)
        except ValueError:
            try:
                x = _fraction(text)
            except (ValueError, ZeroDivisionError):
                raise bad() from None
            if x.denominator != 1:
                raise bad() from None
            n = int(x)
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        raise bad()
    if len(str(abs(n))) > MAX_DIGITS:
        raise BaccaraError(f"{name} must be {kind} of at most {MAX_DIGITS} digits, got {value!r}")
    return n


#: Words that mean the infinite shoe (cards dealt with replacement).
INFINITE_WORDS = ("inf", "infinite", "infinity", "oo")


@overload
def decks(value: Any, name: str = "decks", *, hi: int | None = None, infinite: Literal[False]) -> int: ...
@overload
def decks(value: Any, name: str = "decks", *, hi: int | None = None, infinite: bool = True) -> int | None: ...
def decks(value: Any, name: str = "decks", *, hi: int | None = None, infinite: bool = True) -> int | None:
    """A number of decks: a positive whole number, or ``inf`` (returned as None) where allowed.

    Parameters
    ----------
    value : int, str or None
        ``8``, ``"8"``, ``"inf"``; None also means the infinite shoe.
    name : str
        The parameter's name, used in the error message.
    hi : int, optional
        The largest number of decks allowed.
    infinite : bool
        Whether the infinite shoe is allowed.

    Returns
    -------
    int or None
        The number of decks, None for the infinite shoe.
    """
    if value is None or (isinstance(value, str) and value.strip().lower() in INFINITE_WORDS) \
            or (isinstance(value, float) and value == math.inf):
        if not infinite:
            raise BaccaraError(f"{name} must be a finite number of decks here, got {value!r}")
        return None
    allowed = f"from 1 to {number_text(hi)}" if hi is not None else f"from 1 (at most {MAX_DIGITS} digits)"
    try:
        return integer(value, name, lo=1, hi=hi)
    except BaccaraError:
        raise BaccaraError(f"{name} must be a whole number of decks {allowed}"
                           + (", or 'inf'" if infinite else "") + f", got {value!r}") from None


def decks_or_shoe(given: Any, shoe: Any, *, default: Any = None, infinite: bool = True) -> Any:
    """The shoe a game is built on: fresh decks (``given``) or a ``shoe``, not both.

    Parameters
    ----------
    given : int, str or None
        Fresh decks (see :func:`decks`); None: ``default``.
    shoe : Shoe or None
        Any shoe instead.
    default : int, str or None
        The decks when neither is given (None: the game's own default, the infinite
        shoe where ``infinite`` allows it).
    infinite : bool
        Whether ``"inf"`` is allowed.

    Returns
    -------
    Shoe, int or None
        ``shoe``, or the number of decks (None: the infinite shoe, or the game's default).
    """
    if shoe is not None:
        if given is not None:
            raise BaccaraError("give decks or shoe, not both")
        if not isinstance(shoe, Shoe):
            raise BaccaraError(f"shoe must be a baccara.Shoe, got {type(shoe).__name__}")
        return shoe
    if given is None and default is None:
        return None
    return decks(default if given is None else given, "decks", infinite=infinite)


def commission(value: Any, name: str = "commission") -> Fraction:
    """Commission on Banker's wins: a rational in [0, 1) (``1/20``, ``0.05``, ``5%``).

    Parameters
    ----------
    value : int, Fraction, float or str
        The commission.
    name : str
        The parameter's name, used in the error message.

    Returns
    -------
    Fraction
        The commission, exactly.
    """
    return rational(value, name, lo=0, hi=1, hi_open=True)


def theta(value: Any, name: str = "theta") -> Fraction:
    """Baccara banque's theta: a rational in (0, 1).

    Parameters
    ----------
    value : int, Fraction, float or str
        Theta.
    name : str
        The parameter's name, used in the error message.

    Returns
    -------
    Fraction
        Theta, exactly.
    """
    return rational(value, name, lo=0, hi=1, lo_open=True, hi_open=True)


def theta_range(lo: Any, hi: Any) -> tuple[Fraction, Fraction]:
    """A range of theta for the banque Nash proof: 0 <= lo < hi <= 1/2.

    Parameters
    ----------
    lo, hi : int, Fraction, float or str
        The range's ends (errors name ``--lo`` and ``--hi``).

    Returns
    -------
    tuple of Fraction
        (lo, hi), exactly.
    """
    a = rational(lo, "--lo", lo=0, hi=Fraction(1, 2), hi_open=True)
    b = rational(hi, "--hi", lo=0, hi=Fraction(1, 2), lo_open=True)
    if not a < b:
        raise BaccaraError(f"--lo must be below --hi, got --lo {a} and --hi {b}")
    return a, b


def probability(value: Any, name: str) -> Fraction:
    """A probability in [0, 1].

    Parameters
    ----------
    value : int, Fraction, float or str
        The probability.
    name : str
        The parameter's name, used in the error message.

    Returns
    -------
    Fraction
        The probability, exactly.
    """
    return rational(value, name, lo=0, hi=1)


#: The largest payout accepted, k:1: beyond it a payout is a slip, and its
#: float view (a percentage, a standard deviation) would overflow.
MAX_PAYOUT = 10**9


def payout(value: Any, name: str, *, positive: bool = False) -> Fraction:
    """A bet's net result per unit staked: -1 (the stake lost) up to :data:`MAX_PAYOUT`.

    Parameters
    ----------
    value : int, Fraction, float or str
        ``11`` for 11:1, ``"19/20"``, ``0`` for a push, ``-1`` for a loss.
    name : str
        The parameter's name, used in the error message.
    positive : bool
        Whether only a win is allowed (a tie's T:1): then the range is (0, MAX_PAYOUT].

    Returns
    -------
    Fraction
        The payout, exactly.
    """
    if positive:
        return rational(value, name, lo=0, lo_open=True, hi=MAX_PAYOUT, describe=f"positive, at most {MAX_PAYOUT}")
    return rational(value, name, lo=-1, hi=MAX_PAYOUT,
                    describe=f"in [-1, {MAX_PAYOUT}] (a payout below -1 would lose more than the stake)")


#: Image formats the plots can be written in.
IMAGE_SUFFIXES = (".png", ".pdf", ".svg", ".jpg", ".jpeg", ".eps", ".ps", ".tif", ".tiff", ".webp")


def output_file(path: Any, name: str, suffixes: tuple[str, ...]) -> Path:
    """A file to write, checked before any work starts: named, of a known kind, in a folder that exists and is writable.

    Parameters
    ----------
    path : str or Path
        The file name as given.
    name : str
        The parameter's name, used in the error message.
    suffixes : tuple of str
        The allowed file name endings (lower case, with the dot).

    Returns
    -------
    Path
        The path.
    """
    text = "" if path is None else str(path).strip()
    if not text:
        raise BaccaraError(f"{name} needs a file name ending in {', '.join(suffixes)}, got {path!r}")
    p = Path(text)
    if p.suffix.lower() not in suffixes:
        raise BaccaraError(f"{name} must be a file name ending in {', '.join(suffixes)}, got {text!r}")
    if p.is_dir():
        raise BaccaraError(f"{name}: {text!r} is a folder; give a file name ending in {', '.join(suffixes)}")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise BaccaraError(f"{name}: cannot write {text!r}: folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise BaccaraError(f"{name}: cannot write {text!r} (permission denied)")
    return p


def choice(value: Any, name: str, choices: tuple[str, ...], *, case: str = "upper") -> str:
    """One of a fixed set of words (a model, a concept), normalised to ``case``.

    Parameters
    ----------
    value : str
        The word as given.
    name : str
        The parameter's name, used in the error message.
    choices : tuple of str
        The allowed words, as they are returned.
    case : str
        ``"upper"``, ``"lower"``: how ``value`` is normalised before it is matched;
        ``"exact"``: not at all.

    Returns
    -------
    str
        The word.
    """
    word = str(value).strip()
    word = word.upper() if case == "upper" else word.lower() if case == "lower" else word
    if word not in choices:
        raise BaccaraError(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return word


def backend(value: Any, scheduler: Any = None) -> tuple[str, str | None]:
    """Where a long proof or check runs: ``--backend`` and ``--scheduler``.

    Parameters
    ----------
    value : str
        ``processes`` or ``dask``.
    scheduler : str, optional
        A Dask scheduler's address, ``tcp://HOST:PORT``: it must answer as one (checked within
        seconds), and it implies ``dask``.

    Returns
    -------
    tuple of (str, str or None)
        The backend and the scheduler's address as ``tcp://HOST:PORT``.
    """
    from .processes import PROOF_BACKENDS, probe_scheduler  # lazy: sockets and processes, only when asked

    name = choice(value, "--backend", PROOF_BACKENDS, case="lower")
    if scheduler is None:
        return name, None
    return "dask", probe_scheduler(str(scheduler))
