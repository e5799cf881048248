"""mkdocs hook (``hooks:`` in mkdocs.yml): the version selector only where mike builds.

``extra.version`` in mkdocs.yml turns on the theme's version selector (and its "older
version" banner), which reads ``../versions.json`` in the browser. mike writes that file
beside the versions it deploys on the ``gh-pages`` branch, and runs ``mkdocs build`` with
``MIKE_DOCS_VERSION`` set to the version it builds. Any other build (``mkdocs build``,
``mkdocs serve``, the zip of the site) has no such file: there the setting is dropped, so
that no page requests it (the site fetches nothing at view time and works offline).
"""

from __future__ import annotations

import os
from typing import Any

#: Set by mike to the version it is building (``mike.mkdocs_utils.docs_version_var``).
MIKE_VERSION_VARIABLE = "MIKE_DOCS_VERSION"


def on_config(config: Any) -> Any:
    """Drop ``extra.version`` unless mike is building."""
    if not os.environ.get(MIKE_VERSION_VARIABLE):
        config["extra"].pop("version", None)
    return config
