"""Results of pure computations kept between builds, so that a rebuild under ``mkdocs serve``
recomputes only what an edit changed.

A result is filed under ``.cache/<namespace>/`` (beside Zensical's cache; not tracked) by a
SHA-256 of everything it is computed from: the inputs, and the source of the code and the
version of the library that compute it. A key that leaves out something the result depends
on would serve a stale page, so only computations whose inputs can all be named use it: the
highlighted sources (a file's text and Pygments) and the MathML of a formula (its TeX, the
converter and this site's own typesetting code). A cache that cannot be read or written
only costs time: the result is computed.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path

#: Where the results are kept, under the project's root.
CACHE_DIR = Path(".cache")


def digest(parts: Iterable[str]) -> str:
    """The SHA-256 of ``parts``, each ended by a NUL (so that no two lists share one)."""
    found = hashlib.sha256()
    for part in parts:
        found.update(part.encode("utf-8") + b"\0")
    return found.hexdigest()


def cached(
    namespace: str,
    key: Iterable[str],
    compute: Callable[[], bytes],
    *,
    root: Path | None = None,
) -> bytes:
    """``compute()``, or the bytes it returned before for the same ``key`` in ``namespace``
    (under ``root``, the project's root unless given).

    >>> import tempfile
    >>> calls = []
    >>> def compute():
    ...     calls.append(1)
    ...     return b"result"
    >>> with tempfile.TemporaryDirectory() as root:
    ...     first = cached("demo", ["a"], compute, root=Path(root))
    ...     again = cached("demo", ["a"], compute, root=Path(root))
    >>> first == again == b"result", len(calls)
    (True, 1)
    """
    from contracts.source import REPO_ROOT

    folder = (REPO_ROOT if root is None else root) / CACHE_DIR / namespace
    kept = folder / f"{digest(key)}.bin"
    try:
        return kept.read_bytes()
    except OSError:
        pass
    result = compute()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial = kept.with_suffix(f".{os.getpid()}.part")
        partial.write_bytes(result)
        partial.replace(kept)  # whole or not at all, whoever reads it meanwhile
    except OSError:
        pass
    return result
