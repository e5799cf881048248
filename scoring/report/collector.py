"""The cyclic garbage collector, paused while a report is read, scored and written.

A report allocates millions of short-lived objects (rows, per-agent sums, a dict per
agent) and no reference cycles, so the collector would only spend time looking for them.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a log is read (or its agents scored).

    Reading allocates millions of short-lived objects and no reference cycles: collecting
    would only slow it down (by about a tenth; by a third for many agents). The collector
    is resumed afterwards, also on error, unless it was already paused.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
