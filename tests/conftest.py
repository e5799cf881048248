"""Settings shared by every test folder.

``--doctest-modules`` (pyproject.toml) would also collect each folder's ``conftest.py`` as
a doctest module; the folders are not packages, so two of them named on one command line
(``pytest tests/scoring tests/contracts``) would clash as the module ``conftest``. They hold
fixtures, not doctests, so they are left out of collection (pytest still loads them).
"""

collect_ignore_glob = ["*conftest.py"]
