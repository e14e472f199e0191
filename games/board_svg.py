"""The board as a standalone SVG picture, drawn on the server.

It has the look of static/js/board.js (the board of the pages): the same geometry
(40-unit cells, margins, radii), colours (Othello green felt with discs, Go wood with
grid, star points and coordinates) and last-move marker, with the colours written as
attributes so that the picture needs no stylesheet (``<img>``, the admin, link
previews, pages without JavaScript). Like board.js, each stone is a group with
``data-point="row,col"`` and ``data-color`` (``B``/``W``), and Go's count looks the
same: dead stones faded (class ``dead``), territory as small squares of the owner's
colour (``rect class="territory black"`` with ``data-point``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from html import escape

from gamerules import Point

CELL = 40
# Go's column letters skip I (it reads like J and 1), as board.js and the rules do.
GO_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"

GRADIENTS = {
    "black": (("0%", "#6b6b6b"), ("45%", "#1d1d1d"), ("100%", "#000")),
    "white": (("0%", "#ffffff"), ("70%", "#e9e9e4"), ("100%", "#bdbdb6")),
}
STONE_STROKE = {"black": ("#000", 0.6), "white": ("#8f8f88", 0.8)}
STONE_COLORS = {"B": "black", "W": "white"}
SHADOW = "rgb(0 0 0 / 28%)"
OTHELLO = {"frame": "#1d4a33", "felt": "#2f8a58", "line": "#17452d", "coords": "#cfe7d8"}
GO = {"wood": "#dcb16a", "line": "#3f3019", "coords": "#6b5227"}
MARKER = "#e8453c"
DEAD_OPACITY = 0.4
TERRITORY_SIDE = CELL * 0.3
TERRITORY: dict[str, dict[str, float | str]] = {
    "black": {"fill": "#111"},
    "white": {"fill": "#fff", "stroke": "#3f3f3a", "stroke_width": 1},
}
GO_MARKER = {"black": "#f3f3f3", "white": "#1a1a1a"}


def _n(value: float) -> str:
    """A coordinate as SVG text: at most two decimals, no trailing zeros."""
    return f"{round(value, 2):g}"


def _tag(name: str, **attributes: float | str) -> str:
    """An empty element; ``class_`` is written ``class``, ``stroke_width`` ``stroke-width``."""
    text = " ".join(
        f'{key.rstrip("_").replace("_", "-")}="{_value(value)}"'
        for key, value in attributes.items()
    )
    return f"<{name} {text}/>"


def _value(value: float | str) -> str:
    return _n(value) if isinstance(value, int | float) else escape(value)


def star_points(size: int) -> list[Point]:
    """Go's star points: corners, sides on big boards, the centre of odd ones (as board.js)."""
    if size < 5:
        return []
    centre = (size - 1) // 2
    if size < 7:
        return [(centre, centre)] if size % 2 else []
    edge = 3 if size >= 13 else 2
    lines = [edge, size - 1 - edge]
    if size % 2 and size >= 15:
        lines.insert(1, centre)
    points = [(row, col) for row in lines for col in lines]
    if size % 2 and size < 15:
        points.append((centre, centre))
    return points


def othello_dots(size: int) -> list[tuple[float, float]]:
    """Othello's four dots on the grid lines around the centre zone, boards of 8 and more."""
    if size < 8:
        return []
    lines = (size / 4, 3 * size / 4)
    return [(row, col) for row in lines for col in lines]


class _Geometry:
    """Where things go, for a board of this kind and size (board.js's ``geometry``)."""

    def __init__(self, kind: str, size: int) -> None:
        self.go = kind == "go"
        if self.go:
            # Stones sit on the line crossings.
            self.margin = CELL * 1.15
            self.offset = 0.0
            self.width = 2 * self.margin + (size - 1) * CELL
        else:
            # Discs sit in the squares; the coordinates take the top and left margins.
            self.margin = CELL * 0.6
            self.offset = 0.5
            self.width = self.margin + size * CELL + CELL * 0.2

    def centre(self, point: Point) -> tuple[float, float]:
        row, col = point
        return (
            self.margin + (col + self.offset) * CELL,
            self.margin + (row + self.offset) * CELL,
        )


@functools.cache
def _board_base(kind: str, size: int) -> str:
    """Everything but the stones and the marker: it depends only on kind and size."""
    geometry = _Geometry(kind, size)
    return _go_base(geometry, size) if geometry.go else _othello_base(geometry, size)


def _labels(color: str, places: Sequence[tuple[str, float, float]]) -> str:
    texts = "".join(f'<text x="{_n(x)}" y="{_n(y)}">{escape(text)}</text>' for text, x, y in places)
    return (
        f'<g class="coords" aria-hidden="true" fill="{color}" font-family="{FONT}" '
        f'font-size="14" font-weight="600" text-anchor="middle" '
        f'dominant-baseline="central">{texts}</g>'
    )


def _go_base(geometry: _Geometry, size: int) -> str:
    margin, width = geometry.margin, geometry.width
    end = margin + (size - 1) * CELL
    lines = []
    for i in range(size):
        at = margin + i * CELL
        lines.append(_tag("line", x1=margin, y1=at, x2=end, y2=at))
        lines.append(_tag("line", x1=at, y1=margin, x2=at, y2=end))
    side = end - margin
    edge = _tag(
        "rect",
        class_="edge",
        x=margin,
        y=margin,
        width=side,
        height=side,
        fill="none",
        stroke_width=2,
    )
    stars = "".join(
        _tag("circle", class_="star", cx=x, cy=y, r=CELL * 0.09, fill=GO["line"])
        for x, y in map(geometry.centre, star_points(size))
    )
    near, far = margin - CELL * 0.72, end + CELL * 0.72
    places = []
    for i in range(size):
        at = margin + i * CELL
        number = str(size - i)
        places += [(GO_LETTERS[i], at, near), (GO_LETTERS[i], at, far)]
        places += [(number, near, at), (number, far, at)]
    return (
        '<g class="board-base">'
        + _tag("rect", class_="wood", x=0, y=0, width=width, height=width, rx=6, fill=GO["wood"])
        + f'<g class="grid" stroke="{GO["line"]}" stroke-width="1.1">{"".join(lines)}'
        + edge
        + "</g>"
        + stars
        + "</g>"
        + _labels(GO["coords"], places)
    )


def _othello_base(geometry: _Geometry, size: int) -> str:
    margin, width = geometry.margin, geometry.width
    side = size * CELL
    lines = []
    for i in range(size + 1):
        at = margin + i * CELL
        lines.append(_tag("line", x1=margin, y1=at, x2=margin + side, y2=at))
        lines.append(_tag("line", x1=at, y1=margin, x2=at, y2=margin + side))
    dots = "".join(
        _tag(
            "circle",
            class_="star",
            cx=margin + col * CELL,
            cy=margin + row * CELL,
            r=CELL * 0.08,
            fill=OTHELLO["line"],
        )
        for row, col in othello_dots(size)
    )
    places = []
    for i in range(size):
        at = margin + (i + 0.5) * CELL
        places += [(chr(ord("a") + i), at, margin / 2), (str(i + 1), margin / 2, at)]
    frame = _tag(
        "rect", class_="frame", x=0, y=0, width=width, height=width, rx=6, fill=OTHELLO["frame"]
    )
    felt = _tag(
        "rect", class_="felt", x=margin, y=margin, width=side, height=side, fill=OTHELLO["felt"]
    )
    return (
        '<g class="board-base">'
        + frame
        + felt
        + f'<g class="grid" stroke="{OTHELLO["line"]}" stroke-width="1.6">{"".join(lines)}</g>'
        + dots
        + "</g>"
        + _labels(OTHELLO["coords"], places)
    )


def _gradients(ident: str) -> str:
    defs = []
    for color, stops in GRADIENTS.items():
        inner = "".join(_tag("stop", offset=offset, stop_color=value) for offset, value in stops)
        gradient = f'<radialGradient id="{ident}-{color}" cx="35%" cy="30%" r="75%">'
        defs.append(f"{gradient}{inner}</radialGradient>")
    return f"<defs>{''.join(defs)}</defs>"


def _stones(
    rows: Sequence[str],
    centre: Callable[[Point], tuple[float, float]],
    radius: float,
    ident: str,
    dead: Collection[Point],
) -> str:
    stones = []
    for row, line in enumerate(rows):
        for col, cell in enumerate(line):
            color = STONE_COLORS.get(cell)
            if color is None:
                continue
            x, y = centre((row, col))
            stroke, stroke_width = STONE_STROKE[color]
            faded = (
                f' class="stone {color} dead" opacity="{_n(DEAD_OPACITY)}"'
                if (row, col) in dead
                else f' class="stone {color}"'
            )
            stones.append(
                f'<g{faded} data-color="{cell}" data-point="{row},{col}">'
                + _tag(
                    "circle",
                    class_="shadow",
                    cx=x + CELL * 0.03,
                    cy=y + CELL * 0.05,
                    r=radius,
                    fill=SHADOW,
                )
                + _tag(
                    "circle",
                    class_="body",
                    cx=x,
                    cy=y,
                    r=radius,
                    fill=f"url(#{ident}-{color})",
                    stroke=stroke,
                    stroke_width=stroke_width,
                )
                + "</g>"
            )
    return f'<g class="stones">{"".join(stones)}</g>'


def _territory(
    territory: Mapping[str, Iterable[Sequence[int]]],
    centre: Callable[[Point], tuple[float, float]],
) -> str:
    squares = []
    half = TERRITORY_SIDE / 2
    for color, points in territory.items():
        for row, col in points:
            x, y = centre((row, col))
            squares.append(
                _tag(
                    "rect",
                    class_=f"territory {color}",
                    data_point=f"{row},{col}",
                    x=x - half,
                    y=y - half,
                    width=TERRITORY_SIDE,
                    height=TERRITORY_SIDE,
                    **TERRITORY[color],
                )
            )
    return f'<g class="count" aria-hidden="true">{"".join(squares)}</g>' if squares else ""


def _marker(kind: str, rows: Sequence[str], point: Point, geometry: _Geometry) -> str:
    x, y = geometry.centre(point)
    on = STONE_COLORS.get(rows[point[0]][point[1]], "empty")
    if kind == "go":
        mark = _tag(
            "circle",
            class_=f"marker on-{on}",
            cx=x,
            cy=y,
            r=CELL * 0.22,
            fill="none",
            stroke=GO_MARKER.get(on, MARKER),
            stroke_width=3,
        )
    else:
        mark = _tag("circle", class_=f"marker on-{on}", cx=x, cy=y, r=CELL * 0.09, fill=MARKER)
    return f'<g class="last-move">{mark}</g>'


def draw(
    *,
    kind: str,
    size: int,
    rows: Sequence[str],
    marked: Point | None = None,
    dead: Iterable[Sequence[int]] = (),
    territory: Mapping[str, Iterable[Sequence[int]]] | None = None,
    label: str = "",
    ident: str = "board-svg",
    element_id: str | None = None,
) -> str:
    """The SVG document (one ``<svg>`` element) of the board ``rows``.

    ``kind`` is ``othello`` or ``go``; ``marked`` the point to mark as the last move;
    ``dead`` ([row, col] pairs) the stones to fade and ``territory`` (points by colour,
    ``black``/``white``) the points to square, for Go's count; ``label`` the picture's
    accessible name; ``ident`` prefixes the ids inside (the
    stones' gradients), so give each picture of one page its own; ``element_id`` is the
    ``id`` of the ``<svg>`` itself, if it needs one.
    """
    geometry = _Geometry(kind, size)
    width = _n(geometry.width)
    radius = CELL * (0.47 if geometry.go else 0.41)
    marker = _marker(kind, rows, marked, geometry) if marked is not None else ""
    element = f' id="{escape(element_id)}"' if element_id else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board"{element} '
        f'viewBox="0 0 {width} {width}" '
        f'width="{width}" height="{width}" role="img" aria-label="{escape(label)}" '
        f'data-kind="{escape(kind)}" data-size="{size}">'
        + _gradients(ident)
        + _board_base(kind, size)
        + _stones(rows, geometry.centre, radius, ident, {(row, col) for row, col in dead})
        + _territory(territory or {}, geometry.centre)
        + marker
        + "</svg>"
    )
