"""mkdocs hook (``hooks:`` in mkdocs.yml): the version selector only where mike builds.

``extra.version`` turns on the theme's version selector (and its "older version" banner),
which reads ``../versions.json`` in the browser. mike writes that file beside the versions
it deploys on the ``gh-pages`` branch, and runs ``mkdocs build`` with ``MIKE_DOCS_VERSION``
set to the version it builds: there this hook adds the setting (:data:`SELECTOR`). Any other
build (``mkdocs build``, ``mkdocs serve``, ``zensical build``, which runs no hooks, the zip
of the site) has no such file and no setting, so that no page requests it (the site fetches
nothing at view time and works offline). The setting is not in mkdocs.yml for that reason:
a generator that ignores hooks would keep it.
"""

from __future__ import annotations

import os
from typing import Any

#: Set by mike to the version it is building (``mike.mkdocs_utils.docs_version_var``).
MIKE_VERSION_VARIABLE = "MIKE_DOCS_VERSION"


#: The theme's version setting where mike builds: the selector, and the "older version"
#: banner on every version that is neither the current release ("latest") nor main's
#: unreleased pages ("dev", newer, not older).
SELECTOR: dict[str, Any] = {"provider": "mike", "default": ["latest", "dev"]}


def on_config(config: Any) -> Any:
    """Add ``extra.version`` when mike is building; leave it out of any other build."""
    if os.environ.get(MIKE_VERSION_VARIABLE):
        config["extra"].setdefault("version", dict(SELECTOR))
    else:
        config["extra"].pop("version", None)
    return config
