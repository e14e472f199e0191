"""The layers (docs/architecture.md): imports point down only, and no two modules import
each other, however far round; an app's templates (``templates/<app>/``) load, include,
extend and link only what belongs to their layer or below.

Read from the source with ``ast``: every import counts, at the top of a module, inside a
function or under ``TYPE_CHECKING``, so an import tucked into a function to dodge a cycle
is still one. Importing a submodule (``from games.services import clock``) points at the
submodule, not at its package.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

LAYERS: tuple[tuple[str, ...], ...] = (
    ("gamerules", "tournaments.systems"),
    ("gameengine",),
    ("gtpbot",),
    ("broadcast",),
    ("accounts",),
    ("notifications",),
    ("games",),
    ("players",),
    ("challenges",),
    ("pairing", "bots"),
    ("tournaments",),
    ("moderation",),
    ("puzzles",),
    ("home", "manual"),
    ("othello_site",),
)
"""Lowest first. A module belongs to the longest of these prefixes that names it (its
part); it may import its own part and the parts of the layers below, never a layer above
nor another part of its own layer (pairing and bots know nothing of each other)."""

PURE = (
    "gamerules",
    "gameengine",
    "gtpbot",
    "notifications.endpoints",
    "notifications.pinned",
    "moderation.playban_rules",
    "players.glicko2",
    "puzzles.mining",
    "tournaments.systems",
)
"""Plain Python: no Django (nor Channels, which needs it), ever: the rules, the engines,
and the pure calculations of the apps above (where a push may go, a rating, a
tournament's pairing and scores, a playban)."""
FRAMEWORKS = ("django", "channels", "daphne", "asgiref")


def modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Every module of ``packages`` under ``root``, by dotted name (a package by its
    ``__init__.py``)."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imported(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """What module ``name`` (the file ``path``) imports, as absolute dotted names with the
    line of each: ``from X import Y`` as ``X.Y`` (Y may be a submodule or a name of X)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            for alias in node.names:
                yield f"{base}.{alias.name}", node.lineno


def dependencies(root: Path, packages: tuple[str, ...]) -> dict[str, dict[str, int]]:
    """The modules of ``packages`` and, for each, the other modules of theirs it imports,
    with the first line that does: an import points at the longest module it names
    (``games.services.clock``, a submodule; ``games.services`` for its ``GameError``)."""
    found = modules(root, packages)
    graph: dict[str, dict[str, int]] = {}
    for name, path in found.items():
        targets: dict[str, int] = {}
        for target, line in imported(name, path):
            while target and target not in found:
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.setdefault(target, line)
        graph[name] = targets
    return graph


def part_of(name: str) -> tuple[int, str] | None:
    """The layer (its index in LAYERS) and part of module ``name``; None outside them."""
    best: tuple[int, str] | None = None
    for level, parts in enumerate(LAYERS):
        for part in parts:
            if (name == part or name.startswith(part + ".")) and (
                best is None or len(part) > len(best[1])
            ):
                best = (level, part)
    return best


def upward(graph: dict[str, dict[str, int]]) -> list[str]:
    """Every import that points up or sideways, as ``module:line -> module``."""
    found = []
    for name, targets in sorted(graph.items()):
        here = part_of(name)
        for target, line in sorted(targets.items()):
            there = part_of(target)
            if here is None or there is None or there[1] == here[1]:
                continue
            if there[0] >= here[0]:
                found.append(f"{name}:{line} -> {target}")
    return found


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The groups of modules that import each other, however far round (Tarjan's
    strongly connected components of two modules or more), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        on_stack.add(name)
        for target in graph.get(name, {}):
            if target not in index:
                visit(target)
                low[name] = min(low[name], low[target])
            elif target in on_stack:
                low[name] = min(low[name], index[target])
        if low[name] == index[name]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == name:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return sorted(groups)


def is_pure(name: str) -> bool:
    """Whether module ``name`` is one of PURE or inside one."""
    return any(name == pure or name.startswith(pure + ".") for pure in PURE)


def impure(root: Path) -> list[str]:
    """Every import of a framework, or of a module that is not pure itself, by a pure
    module, as ``module:line -> name``."""
    packages = tuple(sorted({pure.split(".")[0] for pure in PURE}))
    found = modules(root, packages)
    return [
        f"{name}:{line} -> {target}"
        for name, path in sorted(found.items())
        if is_pure(name)
        for target, line in imported(name, path)
        if target.split(".")[0] in FRAMEWORKS
        or (target.split(".")[0] in PACKAGES and not is_pure(_module_of(target, found)))
    ]


def _module_of(target: str, found: dict[str, Path]) -> str:
    """The longest module of ``found`` that ``target`` names (a name inside it)."""
    while target and target not in found:
        target = target.rpartition(".")[0]
    return target


TEMPLATE_USES = re.compile(
    r"""{%\s*(?:load\s+(?P<libraries>[^%]+?)\s*%}"""
    r"""|(?:include|extends)\s+["'](?P<template>[^"']+)["']"""
    r"""|url\s+["'](?P<url>[\w-]+):)"""
)


def template_uses(root: Path) -> list[str]:
    """Every tag library loaded, template included or extended, and URL named by an app's
    template (``templates/<app>/...``) that belongs to an app above it or beside it, as
    ``template -> app``. A library is its app's (``<app>/templatetags/<name>.py``); the
    site's own templates (``base.html``, ``registration/``) are the top layer's."""
    libraries = {path.stem: path.parts[-3] for path in root.glob("*/templatetags/*.py")}
    found = []
    for path in sorted((root / "templates").rglob("*.html")):
        name = path.relative_to(root / "templates").as_posix()
        here = part_of(name.split("/")[0]) if "/" in name else None
        if here is None:
            continue
        for use in TEMPLATE_USES.finditer(path.read_text()):
            apps = [libraries.get(library) for library in (use["libraries"] or "").split()]
            if use["template"] and "/" in use["template"]:
                apps.append(use["template"].split("/")[0])
            apps.append(use["url"])
            for app in filter(None, apps):
                there = part_of(app)
                if there is not None and there[1] != here[1] and there[0] >= here[0]:
                    found.append(f"{name} -> {app}")
    return found


PACKAGES = tuple(sorted({part.split(".")[0] for parts in LAYERS for part in parts}))


def test_imports_point_down_only() -> None:
    assert upward(dependencies(ROOT, PACKAGES)) == []


def test_no_two_modules_import_each_other() -> None:
    assert cycles(dependencies(ROOT, PACKAGES)) == []


def test_the_rules_and_engines_import_no_framework() -> None:
    assert impure(ROOT) == []


def test_templates_use_only_their_layer_and_below() -> None:
    assert template_uses(ROOT) == []


# The checks themselves, on a made-up tree


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    write(
        tmp_path,
        {
            "games/__init__.py": "",
            "games/models.py": "from django.db import models\n",
            "games/services/__init__.py": (
                "from games.services.base import GameError\nfrom games.services.lobby import join\n"
            ),
            "games/services/base.py": "from games import models\n",
            "games/services/lobby.py": "from games.services import base\n",
            "gamerules/__init__.py": "from .go import Go\n",
            "gamerules/go.py": "import math\n",
            "players/__init__.py": "",
            "players/ratings.py": "from games.models import Game\n",
            "bots/__init__.py": "",
            "bots/accounts.py": "import games.services\n",
            "pairing/__init__.py": "",
        },
    )
    return tmp_path


def test_a_clean_tree_passes(tree: Path) -> None:
    graph = dependencies(tree, ("gamerules", "games", "players", "pairing", "bots"))
    assert graph["games.services.lobby"] == {"games.services.base": 1}
    assert graph["gamerules"] == {"gamerules.go": 1}
    assert graph["bots.accounts"] == {"games.services": 1}
    assert upward(graph) == [] and cycles(graph) == [] and impure(tree) == []


@pytest.mark.parametrize(
    ("name", "text", "found"),
    [
        ("games/services/base.py", "from bots import accounts\n", "games.services.base:1"),
        (
            "games/services/base.py",
            "def later():\n    from players.ratings import rate\n",
            "games.services.base:2",
        ),
        ("players/ratings.py", "import bots.accounts\n", "players.ratings:1"),
        ("pairing/services.py", "from bots.accounts import is_bot\n", "pairing.services:1"),
        ("gamerules/go.py", "from games.models import Game\n", "gamerules.go:1"),
    ],
)
def test_an_import_up_or_sideways_is_found(tree: Path, name: str, text: str, found: str) -> None:
    write(tree, {name: text})
    assert [line.split(" -> ")[0] for line in upward(dependencies(tree, PACKAGES))] == [found]


@pytest.mark.parametrize(
    ("files", "group"),
    [
        (
            {
                "games/models.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                "    from games.services.lobby import x\n"
            },
            ["games.models", "games.services.base", "games.services.lobby"],
        ),
        (
            {"games/services/lobby.py": "from games.services import GameError\n"},
            ["games.services", "games.services.lobby"],
        ),
        (
            {"gamerules/go.py": "from . import Go\n"},
            ["gamerules", "gamerules.go"],
        ),
    ],
)
def test_modules_that_import_each_other_are_found(
    tree: Path, files: dict[str, str], group: list[str]
) -> None:
    write(tree, files)
    assert cycles(dependencies(tree, PACKAGES)) == [group]


@pytest.mark.parametrize(
    ("name", "text", "found"),
    [
        ("gamerules/go.py", "def f():\n    import django.db\n", "gamerules.go:2 -> django.db"),
        (
            "gameengine/othello/search.py",
            "from django.conf import settings\n",
            "gameengine.othello.search:1 -> django.conf.settings",
        ),
        ("gtpbot/bridge.py", "import channels.layers\n", "gtpbot.bridge:1 -> channels.layers"),
        (
            "gameengine/answer.py",
            "from games import models\n",
            "gameengine.answer:1 -> games.models",
        ),
    ],
)
def test_a_framework_or_the_app_in_a_pure_package_is_found(
    tree: Path, name: str, text: str, found: str
) -> None:
    write(tree, {"gameengine/__init__.py": "", "gtpbot/__init__.py": "", name: text})
    assert impure(tree) == [found]


def test_the_pure_packages_run_with_the_frameworks_blocked() -> None:
    # As on a machine without Django (tests/support/no_frameworks.py makes importing a
    # framework fail): each package imports, plays, reads a record, answers a turn and
    # reads a bridge's command line.
    script = textwrap.dedent(
        """
        import sys
        import tests.support.no_frameworks
        try:
            import django
        except ImportError:
            pass
        else:
            raise SystemExit("django was not blocked")
        import gamerules, gameengine, gtpbot
        from gamerules import Move, new_position
        from gamerules.sgf import export_sgf, import_sgf
        from gameengine.answer import answer
        from gtpbot.__main__ import parse
        position, diff = new_position("othello", 8).play(Move.place((2, 3)))
        assert diff.flipped == ((3, 3),)
        record = import_sgf("(;GM[1]SZ[9];B[ee];W[])")
        assert import_sgf(export_sgf(record)) == record
        turn = {"kind": "othello", "level": 1, "snapshot": position.to_snapshot()}
        assert tuple(answer(turn)["point"]) in position.legal_moves()
        assert parse(["--url", "http://h:1", "--token", "T", "--", "e"]).engine == ["e"]
        frameworks = tests.support.no_frameworks.FRAMEWORKS
        loaded = sorted(name for name in sys.modules if name.split(".")[0] in frameworks)
        assert not loaded, loaded
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("folder", ["gamerules", "gameengine", "gtpbot"])
def test_the_pure_packages_suites_use_no_framework(folder: str) -> None:
    # What lets them run with the frameworks blocked (docs/testing.md): no import of a
    # framework or an app, no database.
    apps = {package for package in PACKAGES if not is_pure(package)}
    found = [
        f"{path.relative_to(ROOT)}:{line} -> {target}"
        for path in sorted((ROOT / "tests" / folder).rglob("*.py"))
        for target, line in imported(".".join(path.relative_to(ROOT).with_suffix("").parts), path)
        if target.split(".")[0] in {*FRAMEWORKS, *apps}
    ]
    found += [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "tests" / folder).rglob("*.py"))
        if "django_db" in path.read_text()
    ]
    assert found == []


def test_a_pure_module_importing_an_impure_one_is_found(tree: Path) -> None:
    write(
        tree,
        {
            "players/glicko2.py": "from gamerules import go\nfrom players import ratings\n",
            "players/ratings.py": "from django.db import models\n",
        },
    )
    assert impure(tree) == ["players.glicko2:2 -> players.ratings"]


def test_a_framework_in_the_tournament_systems_is_found(tree: Path) -> None:
    write(
        tree,
        {
            "tournaments/__init__.py": "",
            "tournaments/models.py": "from django.db import models\n",
            "tournaments/systems/__init__.py": "",
            "tournaments/systems/swiss.py": "from channels.layers import get_channel_layer\n",
        },
    )
    assert impure(tree) == ["tournaments.systems.swiss:1 -> channels.layers.get_channel_layer"]


def test_the_tournament_systems_and_the_rules_know_nothing_of_each_other(tree: Path) -> None:
    write(
        tree,
        {
            "tournaments/__init__.py": "",
            "tournaments/systems/__init__.py": "",
            "tournaments/systems/swiss.py": "from gamerules import glicko2\n",
        },
    )
    assert upward(dependencies(tree, PACKAGES)) == ["tournaments.systems.swiss:1 -> gamerules"]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("{% load static pools %}", ["games/home.html -> pairing"]),
        ('{% include "players/seat.html" with name=x %}', ["games/home.html -> players"]),
        ("<a href=\"{% url 'bots:online' %}\">", ["games/home.html -> bots"]),
        ('{% extends "base.html" %}{% load static games %}{% url "games:new" %}', []),
    ],
)
def test_a_template_using_an_app_above_is_found(tree: Path, text: str, found: list[str]) -> None:
    write(
        tree,
        {
            "pairing/templatetags/pools.py": "",
            "games/templatetags/games.py": "",
            "templates/games/home.html": text,
            "templates/players/profile.html": '{% include "games/_name.html" %}',
            "templates/base.html": "{% url 'bots:online' %}",
        },
    )
    assert template_uses(tree) == found
