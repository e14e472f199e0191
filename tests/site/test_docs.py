"""The documentation keeps up with the code.

- Every HTTP route of the site (Django's URL resolver, includes followed; Django's own
  admin, auth and static views left out) is named in a table row of ``docs/api/http.md``
  as ``METHOD /path``, its converters written as any ``<name>``.
- Every websocket route (the ``websocket_urlpatterns`` of any module) is named in a table
  row of ``docs/api/websocket.md`` as ``WS /path``; every message type a consumer accepts (its
  module's ``*TYPES`` tuples) and every one the server sends (a dict literal with a
  ``"type"`` key anywhere in the project's packages, but the dotted types of channel-layer
  events and ASGI messages) appears there as ``"type": "name"``; every error code of a
  module-level ``ERROR_CODES`` appears in ``docs/api/README.md``.
- The README is at most ``README_MAX_LINES`` lines, starts with the two commands, links
  every page of ``docs/``, and every relative link of the README and of the pages points
  to a file that exists.
- No tracked text file names a Markdown file that the repository does not hold (read
  from the file's folder, the root or ``docs/``; addresses on other sites left out), and
  an anchor after one (``#section``), or a Markdown link's own ``(#section)``, is one of
  that page's headings.

Consumers and modules are found by searching the packages, not by their paths, so that
moving a module keeps the checks.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from accounts.refusals import Refusal

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
API = DOCS / "api"
HTTP_DOC = ROOT / "docs/api/http.md"
WEBSOCKET_DOC = ROOT / "docs/api/websocket.md"
API_README = API / "README.md"

README_MAX_LINES = 150
COMMANDS = ("sh scripts/serve.sh", "sh scripts/test.sh")

_PLACEHOLDER = re.compile(r"<[^<>]*>")
_HTTP_ROUTE = re.compile(r"\b(?:GET|POST|PUT|PATCH|DELETE)\b[A-Z ,/]*?\s(/[^\s`?#)|]*)")
_WS_ROUTE = re.compile(r"\bWS\s+(/[^\s`?#)|]*)")
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)", re.MULTILINE)
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_ADDRESS = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s\"'`<>()\[\]]*")
_MARKDOWN_NAME = re.compile(r"(?<![\w./-])([\w./-]*[\w-]\.md)(?!\w)(?:#([\w-]*))?")
_OWN_ANCHOR = re.compile(r"\]\(#([^)\s]*)\)")
_HEADING = re.compile(r"^#{1,6}[ \t]+(.*?)[ \t#]*$", re.MULTILINE)


# The project's modules


def packages() -> list[Path]:
    """The project's own top-level packages (not the tests)."""
    return sorted(init.parent for init in ROOT.glob("*/__init__.py") if init.parent.name != "tests")


def modules() -> Iterator[tuple[str, Path, ast.Module]]:
    """Every module of the project's packages: dotted name, path, syntax tree."""
    for package in packages():
        for path in sorted(package.rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            yield name, path, ast.parse(path.read_text(), str(path))


def defines(tree: ast.Module, name: str) -> bool:
    """Whether ``tree`` assigns ``name`` at module level."""
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        if any(isinstance(target, ast.Name) and target.id == name for target in targets):
            return True
    return False


def has_consumer_class(tree: ast.Module) -> bool:
    """Whether ``tree`` defines a class one of whose bases is named ``...Consumer``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                named = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
                if named.endswith("Consumer"):
                    return True
    return False


# Reading the docs


def doc_text(path: Path) -> str:
    assert path.is_file(), f"{path.relative_to(ROOT)} is missing"
    return path.read_text()


def normalised(path: str) -> str:
    """A path with every converter or placeholder (``<str:game_id>``, ``<id>``) as ``<>``."""
    return _PLACEHOLDER.sub("<>", path)


def documented(pattern: re.Pattern[str], path: Path) -> set[str]:
    """The routes ``pattern`` finds in the table rows of the page ``path`` (each page lists
    its routes in a table), normalised."""
    rows = [line for line in doc_text(path).splitlines() if line.lstrip().startswith("|")]
    return {normalised(found) for row in rows for found in pattern.findall(row)}


# HTTP routes


def _framework_view(callback: Any) -> bool:
    """Whether ``callback`` is Django's own (the admin, auth's views, static files)."""
    view = getattr(callback, "view_class", callback)
    return str(getattr(view, "__module__", "")).startswith("django.")


def _route(pattern: Any) -> str:
    """A URL pattern's text, a regex one turned into the docs' form."""
    text = str(pattern)
    if text.startswith("^") or text.endswith("$"):
        text = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"<\1>", text.strip("^$"))
    return text


def http_routes() -> list[str]:
    """Every route of the site as ``/path`` (converters kept), but Django's own views."""

    def walk(patterns: list[Any], prefix: str) -> Iterator[str]:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                if entry.app_name == "admin" or entry.namespace == "admin":
                    continue
                yield from walk(entry.url_patterns, prefix + _route(entry.pattern))
            elif isinstance(entry, URLPattern) and not _framework_view(entry.callback):
                yield "/" + prefix + _route(entry.pattern)

    return sorted(set(walk(get_resolver().url_patterns, "")))


def test_the_resolver_is_read() -> None:
    routes = http_routes()
    assert "/games/new/" in routes
    assert normalised("/games/<str:game_id>/join/") in {normalised(route) for route in routes}
    assert not any(route.startswith("/admin/") for route in routes)


@pytest.mark.parametrize("route", http_routes())
def test_every_http_route_is_in_the_http_page(route: str) -> None:
    assert normalised(route) in documented(_HTTP_ROUTE, HTTP_DOC), (
        f"{route} is a route of the site but no table row of docs/api/http.md names it "
        "(as `GET /path` or `POST /path`)"
    )


# Websocket routes and messages


def websocket_routes() -> dict[str, Any]:
    """Every websocket route (``/path``) and its consumer class, from every module that
    defines ``websocket_urlpatterns``."""
    found = {}
    for name, _, tree in modules():
        if not defines(tree, "websocket_urlpatterns"):
            continue
        for entry in importlib.import_module(name).websocket_urlpatterns:
            found["/" + _route(entry.pattern)] = entry.callback.consumer_class
    return found


def consumer_modules() -> list[Any]:
    """The modules of the consumers: those the websocket routes name, every module named
    ``consumers``, every module with a class based on a ``...Consumer``."""
    named = {consumer.__module__ for consumer in websocket_routes().values()}
    for name, path, tree in modules():
        if path.stem == "consumers" or has_consumer_class(tree):
            named.add(name)
    return [importlib.import_module(name) for name in sorted(named)]


def accepted_types() -> dict[str, set[str]]:
    """The message types each consumer module accepts: its module-level ``*TYPES``
    tuples (or lists, sets) of strings."""
    accepted = {}
    for module in consumer_modules():
        types = set()
        for attribute, value in vars(module).items():
            if attribute.endswith("TYPES") and isinstance(value, tuple | list | set | frozenset):
                types |= {item for item in value if isinstance(item, str)}
        accepted[module.__name__] = types
    return accepted


FORM_MODULES = ("forms", "widgets", "admin")
"""Modules whose ``{"type": ...}`` dicts are HTML attributes, not messages."""


def sent_types() -> set[str]:
    """Every ``"type"`` of a dict literal in the project's modules, but dotted ones (the
    channel layer's events, ASGI's messages) and HTML attributes (``attrs=`` arguments, the
    dicts of form and admin modules): what the server sends (and the bridge, a client,
    sends it)."""
    types = set()
    for _, path, tree in modules():
        if path.stem in FORM_MODULES:
            continue
        attributes = {
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.keyword) and node.arg == "attrs"
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Dict) or id(node) in attributes:
                continue
            for key, value in zip(node.keys, node.values, strict=True):
                if (
                    isinstance(key, ast.Constant)
                    and key.value == "type"
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                    and "." not in value.value
                ):
                    types.add(value.value)
    return types


def message_types() -> list[str]:
    accepted = set().union(*accepted_types().values())
    return sorted(accepted | sent_types())


def test_the_consumers_are_found() -> None:
    routes = websocket_routes()
    assert {"/ws/games/<str:game_id>/", "/ws/lobby/", "/ws/bot/"} <= set(routes)
    accepted = accepted_types()
    for route, consumer in routes.items():
        module = consumer.__module__
        assert accepted.get(module), f"{module} serves {route} but lists no message types"
    assert {"play", "seek", "accepts"} <= set(message_types())
    assert {"state", "moved", "paired", "challenge", "error"} <= sent_types()


@pytest.mark.parametrize("route", sorted(websocket_routes()))
def test_every_websocket_route_is_in_the_websocket_page(route: str) -> None:
    assert normalised(route) in documented(_WS_ROUTE, WEBSOCKET_DOC), (
        f"{route} is a websocket route but no table row of docs/api/websocket.md names it "
        "as `WS /path`"
    )


@pytest.mark.parametrize("kind", message_types())
def test_every_message_type_is_in_the_websocket_page(kind: str) -> None:
    assert f'"type": "{kind}"' in doc_text(WEBSOCKET_DOC), (
        f"the message type {kind!r} is in the code but docs/api/websocket.md never shows "
        f'it as "type": "{kind}"'
    )


def subclasses_refusal(node: ast.AST) -> bool:
    """Whether ``node`` is a class whose bases name ``Refusal``."""
    if not isinstance(node, ast.ClassDef):
        return False
    return any(isinstance(base, ast.Name) and base.id == "Refusal" for base in node.bases)


def error_codes() -> list[str]:
    """Every code a refusal of the project may carry: the ``CODES`` of each subclass of
    ``accounts.refusals.Refusal`` (each module that subclasses it imported first)."""
    for name, _, tree in modules():
        if any(subclasses_refusal(node) for node in ast.walk(tree)):
            importlib.import_module(name)
    codes: set[str] = set()
    pending = [Refusal]
    while pending:
        refusal = pending.pop()
        codes |= set(refusal.CODES)
        pending.extend(refusal.__subclasses__())
    return sorted(codes)


def test_the_error_codes_are_found() -> None:
    assert {"bad_request", "stale", "illegal_move", "playban", "not_found"} <= set(error_codes())


@pytest.mark.parametrize("code", error_codes())
def test_every_error_code_is_in_the_api_conventions(code: str) -> None:
    assert f"`{code}`" in doc_text(API_README), f"docs/api/README.md does not name `{code}`"


# The README and the links


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def links(path: Path) -> list[str]:
    """The relative link targets of the Markdown file ``path`` (code left out), without
    their anchors."""
    text = _CODE_SPAN.sub("", _FENCE.sub("", path.read_text()))
    targets = _LINK.findall(text) + _REFERENCE.findall(text)
    relative = [
        target
        for target in targets
        if not re.match(r"[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")
    ]
    return [target.split("#")[0] for target in relative]


def test_the_readme_is_short() -> None:
    lines = README.read_text().splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


def test_the_readme_starts_with_the_two_commands() -> None:
    opening = "\n".join(README.read_text().splitlines()[:25])
    for command in COMMANDS:
        assert command in opening, f"{command!r} is not in the README's first 25 lines"


def test_the_readme_links_every_page() -> None:
    linked = {(ROOT / target).resolve() for target in links(README)}
    for page in pages():
        assert page.resolve() in linked, f"README.md does not link {page.relative_to(ROOT)}"


@pytest.mark.parametrize("path", [README, *pages()], ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_points_to_a_file(path: Path) -> None:
    for target in links(path):
        if not target:
            continue
        found = (path.parent / target).resolve()
        assert found.exists(), f"{path.relative_to(ROOT)} links {target}, which does not exist"


# Files the repository cites


def tracked_files() -> set[str]:
    """The paths git tracks, from the root."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return {path for path in listed.split("\0") if path}


def tracked_texts() -> Iterator[tuple[Path, str]]:
    """Every tracked file that is text (UTF-8, no NUL byte) and its text."""
    for name in sorted(tracked_files()):
        path = ROOT / name
        if not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            yield path, data.decode()
        except UnicodeDecodeError:
            continue


def anchors(text: str) -> set[str]:
    """The anchors GitHub makes of a Markdown text's headings (fenced code left out): lower
    case, punctuation dropped, spaces as hyphens, a repeated one followed by -1, -2..."""
    made: set[str] = set()
    for heading in _HEADING.findall(_FENCE.sub("", text)):
        anchor = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        repeat = 0
        while (candidate := f"{anchor}-{repeat}" if repeat else anchor) in made:
            repeat += 1
        made.add(candidate)
    return made


@functools.cache
def page_anchors(page: Path) -> set[str]:
    return anchors(page.read_text())


def unheld_citations(path: Path, text: str, tracked: set[str]) -> list[str]:
    """What ``text`` (the file ``path``'s) names that the repository does not hold: a
    Markdown file's name not found among the ``tracked`` files from ``path``'s folder, the
    root or ``docs/`` (never outside the repository; addresses on other sites left out),
    and an anchor that no heading of its page makes."""
    where = path.relative_to(ROOT)
    text = _ADDRESS.sub("", text)
    own = anchors(text) if path.suffix == ".md" else set()
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for name, anchor in _MARKDOWN_NAME.findall(line):
            held = None
            for base in (path.parent, ROOT, DOCS):
                resolved = (base / name).resolve()
                if resolved.is_relative_to(ROOT) and str(resolved.relative_to(ROOT)) in tracked:
                    held = resolved
                    break
            if held is None:
                found.append(f"{where}:{number}: {name}, which the repository does not hold")
            elif anchor and anchor not in page_anchors(held):
                found.append(f"{where}:{number}: {name}#{anchor}, a heading {name} lacks")
        if path.suffix == ".md":
            for anchor in _OWN_ANCHOR.findall(line):
                if anchor not in own:
                    found.append(f"{where}:{number}: #{anchor}, a heading this page lacks")
    return found


def test_every_markdown_file_a_file_names_is_in_the_repository() -> None:
    tracked = tracked_files()
    assert "docs/api/http.md" in tracked
    unheld = [
        citation
        for path, text in tracked_texts()
        for citation in unheld_citations(path, text, tracked)
    ]
    assert not unheld, "files cite what the repository does not hold:\n" + "\n".join(unheld)


def spelt(text: str) -> str:
    """``text`` with each ``{md}`` as ".md": examples that this file, itself checked, does
    not cite."""
    return text.replace("{md}", ".md")


@pytest.mark.parametrize(
    ("text", "unheld"),
    [
        # The contract pinned outside the repository, named as the code named it.
        ('"""The layers (DESIGN{md}, "Layers"): imports point down."""', ["DESIGN{md}"]),
        ("# see ../shared/DESIGN{md}", ["../shared/DESIGN{md}"]),
        ("# see README{md}, docs/bots{md} and api/http{md} (from docs/)", []),
        ("# docs/api/http{md}#the-review, ../../docs/guide{md}#pairing", []),
        ("# docs/gnugo{md} has the measurements", ["docs/gnugo{md}"]),
        ("# http{md} is read from the citing folder, the root or docs/ only", ["http{md}"]),
        ("# docs/api/http{md}#the-reviews", ["docs/api/http{md}#the-reviews"]),
        ("# [its docs](https://example.org/docs/Analysis_Engine{md}#top)", []),
    ],
)
def test_a_name_the_repository_does_not_hold_is_found(text: str, unheld: list[str]) -> None:
    citing = ROOT / "tests/site/citing.py"
    found = unheld_citations(citing, spelt(text), tracked_files())
    assert [line.split(": ")[1].split(",")[0] for line in found] == [spelt(name) for name in unheld]


def test_an_anchor_of_a_markdown_page_is_one_of_its_headings() -> None:
    page = ROOT / "docs" / spelt("citing{md}")
    text = "# Title\n\n## `GET /games/<id>/` twice\n\n```sh\n# not a heading\n```\n"
    for anchor, held in [
        ("title", True),
        ("get-gamesid-twice", True),
        ("not-a-heading", False),
        ("missing", False),
    ]:
        found = unheld_citations(page, text + f"[link](#{anchor})\n", tracked_files())
        assert (not found) is held, (anchor, found)
