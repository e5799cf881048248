"""mkdocs hook (``hooks:`` in mkdocs.yml): a rebuild under ``mkdocs serve`` converts again
only the pages an edit changed, and keeps from the last rebuild what did not change. Under
any other command (``mkdocs build``, ``gh-deploy``, ``serve --clean``, which builds as
``build`` does) it does nothing, so that what CI builds is built from scratch; Zensical runs
no hooks.

``mkdocs serve`` rebuilds the whole site after every save, in a fresh configuration, with
fresh plugins and a fresh template environment, and every page goes through the macros
(which read the live code), Markdown, the search index and the theme's template. What this
hook keeps from one rebuild to the next, in the serving process:

- **The compiled live code.** The macros import ``scoring``, ``contracts`` and ``macros.*``
  afresh at each build (``docs/macros/__init__.py``) and write no bytecode under the
  watched folders, so every module was compiled from its source at every rebuild. Here each
  module's code object is kept by its path and its source's bytes: a rebuild compiles only
  the files that changed (:class:`_KeptCodeFinder`).
- **The compiled theme templates**, by their name and source (:class:`_KeptTemplates`,
  Jinja's own bytecode cache kept in memory), and the macros' page templates, by the
  page's text (:func:`_keep_page_templates`).
- **A quicker look at the watched files.** mkdocs' watcher polls them every half second:
  a save waited a quarter of a second on average before the rebuild started. Here every
  :data:`POLL_INTERVAL_S` (the look at every watched file costs a few milliseconds).
- **The collection of garbage until the page shows.** A rebuild makes and drops a great
  many objects (the live code it imports afresh, among them), and Python's cyclic
  collector walked the whole heap about twice a rebuild (a tenth of its time). It is
  paused while a build runs and runs once, whole, a moment after
  (:data:`COLLECT_AFTER_S`), when the browser has had the rebuilt page.
- **Each page's HTML, anchors and search entries, by the Markdown the macros rendered.**
  The macros still render every page at every rebuild: what a page shows can depend on any
  part of the code (a value, a command's output, a line number of a source link), and only
  rendering it tells. A page whose rendered Markdown (and front matter) is what it was at
  the previous build, with the same inputs of the conversion (mkdocs.yml, every file under
  docs/ other than the pages, such as the snippets and the theme's overrides, and the list
  of files with their addresses), is not converted again nor indexed again: the previous
  HTML, table of contents, anchors, links and search entries are used, and the warnings its
  conversion logged are logged again. Its template is still rendered (the navigation and
  the page around the article are the build's own), and every page is written. So an edit
  of a constant converts the pages that show something it moved, and an edit of one page
  converts that page.

Nothing here changes what a page holds: a reused page is the one its Markdown makes
(``tests/site/test_serve_reload.py`` builds a tree both ways and compares every file).
"""

from __future__ import annotations

import gc
import hashlib
import importlib.abc
import importlib.machinery
import logging
import os
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

import jinja2
from mkdocs.plugins import event_priority

LOG = logging.getLogger("mkdocs.hooks.serve_reload")

#: The packages whose modules the macros import afresh at each build (of ``macros``, its
#: submodules).
LIVE_PACKAGES = ("scoring", "contracts", "macros")

#: Where mkdocs logs what a page's conversion warns of (links, anchors).
MKDOCS_LOGGER = "mkdocs"

#: Seconds between two looks of the server's watcher at the watched files (mkdocs' 0.5).
POLL_INTERVAL_S = 0.2

#: Seconds after a build before its garbage is collected and the collector is back on: first
#: the browser reloads the page (the collector holds the interpreter while it runs, about a
#: tenth of a second).
COLLECT_AFTER_S = 0.5


# --- the compiled live code ------------------------------------------------------------------


#: The code of each source file of the live code, with the bytes it was compiled from.
_KEPT_CODE: dict[str, tuple[bytes, CodeType]] = {}


class _KeptCodeLoader(importlib.machinery.SourceFileLoader):
    """Loads a module of the live code from its source, compiled once per content."""

    def get_code(self, fullname: str) -> CodeType:
        path = self.get_filename(fullname)
        source = self.get_data(path)
        found = _KEPT_CODE.get(path)
        if found is not None and found[0] == source:
            return found[1]
        code = self.source_to_code(source, path)
        _KEPT_CODE[path] = (source, code)
        return code


class _KeptCodeFinder(importlib.abc.MetaPathFinder):
    """Finds the live code where the standard path finder would, loaded by
    :class:`_KeptCodeLoader`; any other module is left to the finders after it."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname.partition(".")[0] not in LIVE_PACKAGES:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or type(spec.loader) is not importlib.machinery.SourceFileLoader:
            return spec
        spec.loader = _KeptCodeLoader(fullname, spec.loader.path)
        return spec


_FINDER = _KeptCodeFinder()


# --- the compiled theme templates ------------------------------------------------------------


class _KeptTemplates(jinja2.BytecodeCache):
    """Jinja's compiled templates in memory, by name; a bucket whose source changed is
    compiled again (Jinja compares the source's checksum)."""

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = self.kept.get(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()


_TEMPLATES = _KeptTemplates()


#: The code of the pages' templates (each page is one for the macros), by what it was
#: compiled from: see :func:`_keep_page_templates`.
_KEPT_PAGES: dict[str, CodeType] = {}


#: What a Jinja environment compiles a template by, besides the template's text (its
#: syntax, whitespace rules and the code it generates).
_COMPILE_SETTINGS = (
    "block_start_string",
    "block_end_string",
    "variable_start_string",
    "variable_end_string",
    "comment_start_string",
    "comment_end_string",
    "line_statement_prefix",
    "line_comment_prefix",
    "trim_blocks",
    "lstrip_blocks",
    "newline_sequence",
    "keep_trailing_newline",
    "optimized",
    "is_async",
    "autoescape",
    "finalize",
)


def _keep_page_templates(env: jinja2.Environment) -> None:
    """Keep the code the macros' environment compiles each page's template into, by the
    page's text and what the compiler reads of the environment (its settings, its
    extensions, and the filters and tests it looks up: their names, and what each is
    passed); a page whose text is unchanged is not compiled again at the next rebuild."""
    compile_template: Any = env.compile

    def signature(functions: dict[str, Any]) -> str:
        return repr(
            sorted((n, repr(getattr(f, "jinja_pass_arg", None))) for n, f in functions.items())
        )

    settings = [repr(getattr(env, name, None)) for name in _COMPILE_SETTINGS]
    setting = "\0".join(
        [*settings, repr(sorted(env.extensions)), signature(env.filters), signature(env.tests)]
    )

    def compile(
        source: Any,
        name: str | None = None,
        filename: str | None = None,
        raw: bool = False,
        defer_init: bool = False,
    ) -> Any:
        if raw or not isinstance(source, str):
            return compile_template(source, name, filename, raw, defer_init)
        key = hashlib.sha256(
            f"{setting}\0{name}\0{filename}\0{defer_init}\0{source}".encode()
        ).hexdigest()
        code = _KEPT_PAGES.get(key)
        if code is None:
            code = _KEPT_PAGES[key] = compile_template(source, name, filename, raw, defer_init)
        return code

    env.compile = compile  # type: ignore[method-assign]


# --- pages -----------------------------------------------------------------------------------


@dataclass
class _Converted:
    """What converting a page's Markdown gave, as ``Page.render`` leaves it, and what the
    search index took from it."""

    key: str
    content: str = ""
    toc: Any = None
    title: str | None = None
    anchor_ids: set[str] = field(default_factory=set)
    #: ``Page.links_to_anchors`` by the linked file's ``src_uri`` (a build has its own files).
    links: dict[str, dict[str, str]] | None = None
    warnings: list[logging.LogRecord] = field(default_factory=list)
    #: The search index's entries of the page; None until indexed.
    entries: list[dict[str, Any]] | None = None


class _Capture(logging.Handler):
    """The warnings logged while a page is converted."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class _Serving:
    """What the serving process keeps between builds."""

    serving: bool = False
    #: The inputs of the conversion at the last build that finished, and its pages.
    inputs: str | None = None
    pages: dict[str, _Converted] = field(default_factory=dict)
    #: This build's: its inputs, its pages (converted or reused) and which were reused.
    building: str | None = None
    built: dict[str, _Converted] = field(default_factory=dict)
    reused: set[str] = field(default_factory=set)
    #: The page being converted now, and the handler catching its warnings.
    converting: tuple[str, _Capture] | None = None
    #: Whether this hook paused the collector; the collection to come after a build.
    paused: bool = False
    collection: threading.Timer | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def pause_collector(self) -> None:
        """No cyclic garbage collection while a build runs (the collection after the last
        build called off if it has not started)."""
        with self.lock:
            if self.collection is not None:
                self.collection.cancel()
                self.collection = None
            if gc.isenabled():
                gc.disable()
                self.paused = True

    def collect_later(self) -> None:
        """One whole collection :data:`COLLECT_AFTER_S` from now, in a thread of its own,
        and the collector back on from then: not at the end of the build, where the
        collector would walk all the build left at once, before the page shows."""
        with self.lock:
            if self.paused and self.collection is None:
                self.collection = threading.Timer(COLLECT_AFTER_S, self._collect)
                self.collection.daemon = True
                self.collection.start()

    def _collect(self) -> None:
        with self.lock:
            if self.collection is not threading.current_thread():
                return  # called off: a build started
            self.collection = None
            self.resume_collector()
        gc.collect()

    def resume_collector(self) -> None:
        """The collector back on, if this hook paused it."""
        if self.paused:
            gc.enable()
            self.paused = False

    def stop_capture(self) -> _Capture | None:
        if self.converting is None:
            return None
        _, capture = self.converting
        logging.getLogger(MKDOCS_LOGGER).removeHandler(capture)
        self.converting = None
        return capture


_STATE = _Serving()


def page_key(markdown: str, meta: dict[str, Any]) -> str:
    """What a page's conversion reads of the page: its Markdown as the macros rendered it,
    and its front matter (a title, a template, search settings)."""
    return hashlib.sha256(f"{sorted(meta.items())!r}\0{markdown}".encode()).hexdigest()


def conversion_inputs(config: Any, files: Any) -> str:
    """What every page's conversion reads besides the page: mkdocs.yml, each file under
    docs/ that is not a page (snippets, the theme's overrides, the macros), by size and
    modification time, and every file's address."""
    parts = [Path(config.config_file_path).read_text(encoding="utf-8")]
    pages = {Path(f.abs_src_path) for f in files.documentation_pages() if f.abs_src_path}
    for folder, _, names in os.walk(config.docs_dir):
        for name in sorted(names):
            path = Path(folder, name)
            if path in pages or "__pycache__" in path.parts:
                continue
            stat = path.stat()
            parts.append(f"{path}\0{stat.st_mtime_ns}\0{stat.st_size}")
    parts += sorted(f"{f.src_uri}\0{f.dest_uri}\0{f.url}" for f in files)
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _restore(page: Any, kept: _Converted) -> Callable[[Any, Any], None]:
    """A stand-in for ``page.render``: the previous conversion's results, and its warnings
    logged again."""

    def render(config: Any, files: Any) -> None:
        page.content = kept.content
        page.toc = kept.toc
        page._title_from_render = kept.title
        page.present_anchor_ids = set(kept.anchor_ids)
        if kept.links is not None:
            page.links_to_anchors = {
                files.get_file_from_path(uri): dict(anchors) for uri, anchors in kept.links.items()
            }
        for record in kept.warnings:
            logging.getLogger(record.name).handle(record)

    return render


def _index_once(index: Any) -> None:
    """Make the search index take a reused page's entries from its previous build. (An
    entry is a dict the index only reads once it is made, so the same dicts serve again.)"""
    add = index.add_entry_from_context

    def add_entry_from_context(page: Any) -> None:
        kept = _STATE.built.get(page.file.src_uri)
        if kept is None:
            add(page)
            return
        if page.file.src_uri in _STATE.reused and kept.entries is not None:
            index.entries.extend(kept.entries)
            return
        before = len(index.entries)
        add(page)
        kept.entries = index.entries[before:]

    index.add_entry_from_context = add_entry_from_context


# --- events ----------------------------------------------------------------------------------


def on_startup(command: str, dirty: bool) -> None:
    """Keep builds between rebuilds only under ``mkdocs serve``."""
    _STATE.serving = command == "serve"
    if _STATE.serving and _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


@event_priority(100)  # first: before the macros import the live code afresh
def on_config(config: Any) -> Any:
    if _STATE.serving:
        _STATE.pause_collector()
    return config


def on_pre_build(config: Any) -> None:
    """After every plugin's configuration (the macros' template environment is made)."""
    if _STATE.serving:
        plugin = config.plugins.get("macros")
        env = getattr(plugin, "env", None)
        if isinstance(env, jinja2.Environment):
            _keep_page_templates(env)


@event_priority(-100)  # after every plugin's files (the addresses are final)
def on_files(files: Any, config: Any) -> Any:
    if _STATE.serving:
        _STATE.building = conversion_inputs(config, files)
        _STATE.built, _STATE.reused = {}, set()
    return files


@event_priority(-100)  # after the macros: the Markdown that Markdown will convert
def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if not _STATE.serving:
        return markdown
    _STATE.stop_capture()
    uri = page.file.src_uri
    key = page_key(markdown, page.meta)
    kept = _STATE.pages.get(uri)
    if kept is not None and kept.key == key and _STATE.inputs == _STATE.building:
        page.render = _restore(page, kept)
        _STATE.built[uri] = kept
        _STATE.reused.add(uri)
        return markdown
    capture = _Capture()
    logging.getLogger(MKDOCS_LOGGER).addHandler(capture)
    _STATE.converting = (uri, capture)
    _STATE.built[uri] = _Converted(key)
    return markdown


@event_priority(100)  # first: the page as Page.render left it
def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    if not _STATE.serving:
        return html
    uri = page.file.src_uri
    converting = _STATE.converting is not None and _STATE.converting[0] == uri
    capture = _STATE.stop_capture()
    if converting and capture is not None and uri not in _STATE.reused:
        kept = _STATE.built[uri]
        kept.content = html
        kept.toc = page.toc
        kept.title = page._title_from_render
        kept.anchor_ids = set(page.present_anchor_ids or ())
        links = page.links_to_anchors
        if links is not None:
            kept.links = {f.src_uri: dict(anchors) for f, anchors in links.items()}
        kept.warnings = capture.records
    return html


def on_env(env: jinja2.Environment, config: Any, files: Any) -> jinja2.Environment:
    """Under serve: the theme's compiled templates kept, and the search index made to
    reuse a reused page's entries."""
    if _STATE.serving:
        env.bytecode_cache = _TEMPLATES
        for plugin in config.plugins.values():
            index = getattr(plugin, "search_index", None)
            if index is not None and hasattr(index, "add_entry_from_context"):
                _index_once(index)
    return env


def on_post_build(config: Any) -> None:
    """The build finished: its pages are the ones the next build compares with."""
    if _STATE.serving:
        if _STATE.inputs is not None:
            converted = sorted(set(_STATE.built) - _STATE.reused)
            LOG.info(
                "Converted %d of %d pages again (the others' Markdown is unchanged): %s",
                len(converted),
                len(_STATE.built),
                ", ".join(converted) or "none",
            )
        _STATE.pages, _STATE.inputs = _STATE.built, _STATE.building
        _STATE.built, _STATE.reused = {}, set()
        _STATE.collect_later()


@event_priority(100)  # first: before any plugin watches more paths
def on_serve(server: Any, config: Any, builder: Any) -> Any:
    """The server's watcher made to look every :data:`POLL_INTERVAL_S`: what it watches by
    now (the docs, mkdocs.yml, the theme if asked) is watched again by a watcher of that
    interval, and so is all it is told to watch after (mkdocs.yml's ``watch``)."""
    if not _STATE.serving:
        return server
    watched = []
    for path in (config.docs_dir, config.config_file_path, *config.theme.dirs):
        if not path:
            continue  # no configuration file (read from standard input)
        try:
            server.unwatch(path)
        except KeyError:
            continue  # not watched (the theme, unless --watch-theme)
        watched.append(path)
    # A new watcher of mkdocs' own kind (watchdog's polling observer), not yet started.
    server.observer = type(server.observer)(timeout=POLL_INTERVAL_S)
    for path in watched:
        server.watch(path)
    return server


def on_shutdown() -> None:
    """``mkdocs serve`` stops: imports go back to the standard finders."""
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    with _STATE.lock:
        if _STATE.collection is not None:
            _STATE.collection.cancel()
            _STATE.collection = None
        _STATE.resume_collector()


def on_build_error(error: Exception) -> None:
    """A failed build leaves nothing to reuse: the next one converts every page."""
    _STATE.collect_later()
    _STATE.stop_capture()
    _STATE.pages, _STATE.inputs = {}, None
    _STATE.built, _STATE.reused = {}, set()
