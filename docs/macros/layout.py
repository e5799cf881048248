"""Where the site publishes its files, by path from the site root: one list that the pages'
links (:mod:`macros.site`) and the publisher (:mod:`macros.published`) both read, so that
neither imports the other."""

from __future__ import annotations

DOWNLOADS = "downloads"
SNAPSHOT_FILE = "methodology.json"
SCHEMA_FILE = "methodology.schema.json"
VERSIONS_DIR = "versions"
# Highlighted copies of scoring/ and contracts/ sources, published with the site; a line is
# anchored as #L-<line>.
SOURCE_DIR = "source"
SOURCE_ANCHOR = "L"
SOURCE_PACKAGES = ("scoring", "contracts")
