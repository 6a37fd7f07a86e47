"""What the hot modules need of ``cython`` when Cython is not installed (Pyodide, a plain pip).

The hot modules are written in Cython's pure-Python mode: ``import cython``, then
declarations (``@cython.locals(x=cython.int)``) that the compiler reads and the
interpreter ignores. Cython's own ``cython`` module does the ignoring where it is
installed; this one does it everywhere else, so the package needs nothing at run time.
Only the names the package uses are here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

#: Never compiled: Cython replaces ``cython.compiled`` with True in what it compiles.
compiled = False

int = int    # noqa: A001 -- Cython's C int, a Python int here
long = int
bint = bool
longlong = int
ulonglong = int   # Cython's 64-bit unsigned C int, a Python int here
Py_ssize_t = int
double = float   # Cython's C double, a Python float here


def pointer(kind: Any) -> Any:
    """``cython.pointer(T)``: a C pointer type (used only in code that runs compiled)."""
    return kind


def typedef(kind: Any) -> Any:
    """``cython.typedef(T)``: a C type's name (used only in code that runs compiled)."""
    return kind


def cast(kind: Any, value: Any) -> Any:
    """``cython.cast(T, x)``: ``x`` as a C type compiled, ``x`` itself here."""
    return value


def _same(f: F) -> F:
    return f


def locals(**types: Any) -> Callable[[F], F]:   # noqa: A001 -- Cython's spelling
    """``@cython.locals(name=type, ...)``: C types for a function's locals."""
    return _same


def returns(kind: Any) -> Callable[[F], F]:
    return _same


def boundscheck(flag: bool) -> Callable[[F], F]:
    return _same


def wraparound(flag: bool) -> Callable[[F], F]:
    return _same


def cfunc(f: F) -> F:
    return f


def ccall(f: F) -> F:
    """``@cython.ccall`` (cpdef): a C call inside its module, a Python one from outside."""
    return f


def inline(f: F) -> F:
    return f


def final(f: F) -> F:
    return f


def declare(kind: Any, value: Any = None, **visibility: Any) -> Any:
    """``x = cython.declare(cython.int, 5)``: a C variable compiled, the value here."""
    return value


def fused_type(*kinds: Any) -> Any:
    """``cython.fused_type(T1, T2)``: one source compiled once per type; any value here."""
    return object
