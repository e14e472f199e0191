"""Every string a person sees is marked for translation: a scan of the templates and of
the scripts that fails on visible English outside ``{% translate %}`` /
``{% blocktranslate %}`` (templates) or ``gettext()`` / ``ngettext()`` /
``pgettext()`` / ``npgettext()`` (scripts, through the /jsi18n/ catalogue).

Templates: the text between tags and the attributes a person reads or hears (``title``,
``placeholder``, ``aria-label``, ``alt``, ``label``, a button's ``value``, and the site's own
``data-label``, a table cell's heading on a phone, and ``data-busy``, a button's words while
its form is sent), outside ``<script>``, ``<style>``, ``<code>``, ``<kbd>``, ``<pre>``,
``<samp>`` and any element marked ``translate="no"`` (HTML's own way to say "not to be
translated": a game's code, coordinates, SGF); a template variable counts as marked (its
text is marked where it is made). A quoted phrase passed to a tag or a filter
(``default:"Some words"``) counts too, but for one marked ``_("...")``.

Scripts: a string literal (or a template literal's fixed parts) counts as visible when it
is put into ``textContent``, ``innerText``, ``innerHTML``, ``title``, ``placeholder``,
``alt``, ``ariaLabel`` (assigned or as an object's property), into ``setAttribute`` of
``aria-label``/``title``/``placeholder``/``alt``, or given to ``alert``/``confirm``/
``prompt``; and, anywhere, when it reads as prose: two words or more, or one capitalised
word ("Pause"). Literals given to the DOM's and the network's own calls
(``querySelector``, ``addEventListener``, ``fetch``...) and compared (``=== "done"``) are
codes, not words."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_DIRS = [ROOT / "templates", *sorted(ROOT.glob("*/templates"))]
SCRIPT_DIRS = [ROOT / "static" / "js", *sorted(ROOT.glob("*/static/js"))]
"""The site's scripts and the apps' own (the live game's page: live/static/js/)."""

#: Words that are the same in every language: names, formats, the BOT badge, the ratings' RD
#: and the B+/W+ of a score.
SAME_EVERYWHERE = {
    "SGF",
    "GTP",
    "JSON",
    "API",
    "URL",
    "HTTP",
    "HTTPS",
    "Glicko",
    "GNU",
    "Edax",
    "BOT",
    "RD",
    "B",
    "W",
}

#: Literals of a script a person may see that are deliberately not in the catalogue, with
#: the reason. The service worker has no catalogue: the server sends its words, already in
#: the account's language; "Othello & Go" is only its fallback title, the site's name.
SCRIPT_EXCEPTIONS = {("sw.js", "Othello & Go")}

VISIBLE_ATTRIBUTES = {
    "title",
    "placeholder",
    "aria-label",
    "alt",
    "label",
    "aria-description",
    "data-label",
    "data-busy",
}
EXEMPT_ELEMENTS = {"script", "style", "code", "kbd", "pre", "samp"}
VOID_ELEMENTS = {
    "area",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "wbr",
}
MARK = "\N{SECTION SIGN}"  # stands for a template variable's or a translation's output


@dataclass(frozen=True)
class Unmarked:
    """A visible string found unmarked: where, and the text."""

    where: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.where}:{self.line}: {self.text!r}"


def has_words(text: str) -> bool:
    """Whether ``text`` holds a letter outside the template's own output and the words
    that are the same in every language."""
    words = re.findall(r"[^\W\d_]+", text.replace(MARK, " "))
    return any(word not in SAME_EVERYWHERE for word in words)


QUOTED = re.compile(r"""(_\()?(?:"([^"]*)"|'([^']*)')""")


def _phrases(contents: str) -> list[str]:
    """The quoted phrases (two words or more) of a tag's or a variable's contents, but for
    those marked as Django's templates mark them, ``_("...")``."""
    quoted = [double or single for marked, double, single in QUOTED.findall(contents) if not marked]
    return [
        text
        for text in quoted
        if len(re.findall(r"[^\W\d_]{2,}", text)) >= 2 and " " in text.strip()
    ]


def template_text(source: str) -> tuple[str, list[tuple[int, str]]]:
    """The template as the browser gets it, with each variable and translation standing as
    ``MARK`` and the inside of ``blocktranslate`` and ``comment`` blocks left out (their
    lines kept blank so the line numbers stay); and the unmarked phrases given to tags and
    filters, with their lines."""
    out: list[str] = []
    phrases: list[tuple[int, str]] = []
    skipping: str | None = None
    for token in Lexer(source).tokenize():
        name = token.contents.split(" ", 1)[0] if token.token_type == TokenType.BLOCK else ""
        if skipping:
            out.append("\n" * token.contents.count("\n"))
            if name == skipping:
                skipping = None
            continue
        if token.token_type == TokenType.TEXT:
            out.append(token.contents)
        elif token.token_type == TokenType.VAR:
            out.append(MARK)
            phrases += [(token.lineno, phrase) for phrase in _phrases(token.contents)]
        elif token.token_type == TokenType.BLOCK:
            if name in {"translate", "trans"}:
                out.append(MARK)
            elif name in {"blocktranslate", "blocktrans"}:
                out.append(MARK)
                skipping = "end" + name
            elif name == "comment":
                skipping = "endcomment"
            else:
                phrases += [(token.lineno, phrase) for phrase in _phrases(token.contents)]
    return "".join(out), phrases


class _VisibleText(HTMLParser):
    """Collects the text and the read attributes outside the exempt elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.exempt: list[list[str | int]] = []  # [tag, open count] of the exempt elements

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if self.exempt and tag == self.exempt[-1][0]:
            self.exempt[-1][1] = int(self.exempt[-1][1]) + 1
        elif tag not in VOID_ELEMENTS and (
            tag in EXEMPT_ELEMENTS or values.get("translate") == "no"
        ):
            self.exempt.append([tag, 1])
        if self.exempt:
            return
        line = self.getpos()[0]
        for name, value in attrs:
            read = name in VISIBLE_ATTRIBUTES or (
                name == "value"
                and tag == "input"
                and values.get("type") in {"submit", "button", "reset"}
            )
            if read and value and has_words(value):
                self.found.append((line, value))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in EXEMPT_ELEMENTS:
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.exempt and tag == self.exempt[-1][0]:
            self.exempt[-1][1] = int(self.exempt[-1][1]) - 1
            if self.exempt[-1][1] == 0:
                self.exempt.pop()

    def handle_data(self, data: str) -> None:
        if not self.exempt and has_words(data):
            self.found.append((self.getpos()[0], " ".join(data.split())))


def unmarked_in_template(source: str, where: str = "") -> list[Unmarked]:
    """The visible strings of a template that are not marked for translation."""
    text, phrases = template_text(source)
    parser = _VisibleText()
    parser.feed(text)
    parser.close()
    found = [(line, phrase) for line, phrase in phrases if has_words(phrase)] + parser.found
    return [Unmarked(where, line, value) for line, value in sorted(found)]


# The scripts.

GETTEXT = {"gettext", "ngettext", "pgettext", "npgettext", "gettext_noop"}
TECHNICAL_CALLS = {
    "querySelector", "querySelectorAll", "getElementById", "closest", "matches",
    "addEventListener", "removeEventListener", "dispatchEvent", "Event", "CustomEvent",
    "createElement", "createElementNS", "getAttribute", "hasAttribute", "removeAttribute",
    "toggleAttribute", "fetch", "WebSocket", "URL", "URLSearchParams", "getItem", "setItem",
    "removeItem", "startsWith", "endsWith", "includes", "split", "replace", "has",
    "register", "matchMedia", "import", "Request",
}  # fmt: skip
SINK_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt", "aria-description"}
SINK_PROPERTIES = r"textContent|innerText|innerHTML|title|placeholder|alt|ariaLabel"
KEY_NAMES = {"Enter", "Escape", "Tab", "Home", "End", "Backspace", "Delete", "Space"}


@dataclass
class _Literal:
    text: str  # a template literal's fixed parts, its ``${}`` standing as MARK
    start: int
    end: int
    line: int
    frames: tuple[tuple[str, int, int], ...]  # enclosing calls: (callee, call id, argument)
    nested: bool = False  # inside another template literal's ``${}``
    compared: bool = False  # an operand of ``==``/``!=``, a ``case``, or an index


def _scan_js(source: str) -> tuple[list[_Literal], str]:
    """The string literals of a script, with their enclosing calls; and the script with
    every literal and comment blanked (same length), for finding the code around them."""
    literals: list[_Literal] = []
    masked = list(source)
    frames: list[list[str | int]] = []  # [bracket, callee, id, argument]
    calls = 0
    i = 0
    last = ""  # the last significant character of code, for telling a regex from a division

    def blank(start: int, end: int) -> None:
        for k in range(start, end):
            if masked[k] != "\n":
                masked[k] = " "

    def read_string(start: int) -> int:
        quote = source[start]
        k = start + 1
        parts: list[str] = []
        piece = k
        while source[k] != quote:
            if source[k] == "\\":
                k += 2
                continue
            if quote == "`" and source.startswith("${", k):
                parts.append(source[piece:k] + MARK)
                depth = 1
                k += 2
                inner = k
                known = len(literals)
                while depth:
                    if source[k] in "\"'`":
                        k = read_string(k)
                        continue
                    depth += {"{": 1, "}": -1}.get(source[k], 0)
                    k += 1
                del literals[known:]  # found again, with their calls, by _nested
                _nested(inner, k - 1)
                piece = k
                continue
            k += 1
        parts.append(source[piece:k])
        callers = tuple((str(f[1]), int(f[2]), int(f[3])) for f in frames if f[0] == "(")
        literals.append(
            _Literal("".join(parts), start, k + 1, source.count("\n", 0, start) + 1, callers)
        )
        return k + 1

    def _nested(start: int, end: int) -> None:
        found, _ = _scan_js(source[start:end])
        callers = tuple((str(f[1]), int(f[2]), int(f[3])) for f in frames if f[0] == "(")
        for literal in found:
            literal.nested = True
            literal.start += start
            literal.end += start
            literal.line += source.count("\n", 0, start)
            literal.frames = callers + literal.frames
            literals.append(literal)

    while i < len(source):
        char = source[i]
        if source.startswith("//", i):
            end = source.find("\n", i)
            end = len(source) if end < 0 else end
            blank(i, end)
            i = end
        elif source.startswith("/*", i):
            end = source.index("*/", i) + 2
            blank(i, end)
            i = end
        elif char in "\"'`":
            end = read_string(i)
            blank(i, end)
            i, last = end, "a"
        elif char == "/" and (last in "(,=:[!&|?{};+-*%<>~^" or last == ""):
            k = i + 1
            in_class = False
            while source[k] != "/" or in_class:
                in_class = (in_class or source[k] == "[") and source[k] != "]"
                k += 2 if source[k] == "\\" else 1
            while k + 1 < len(source) and source[k + 1].isalpha():
                k += 1
            blank(i, k + 1)
            i, last = k + 1, "a"
        else:
            if char in "([{":
                callee = ""
                if char == "(":
                    match = re.search(r"([\w$]+)\s*$", source[:i])
                    callee = match[1] if match else ""
                    calls += 1
                frames.append([char, callee, calls, 0])
            elif char in ")]}" and frames:
                frames.pop()
            elif char == "," and frames:
                frames[-1][3] = int(frames[-1][3]) + 1
            if not char.isspace():
                last = "a" if (char.isalnum() or char in "_$)]") else char
                word = re.match(r"[\w$]+", source[i:])
                if word and word[0] in {"return", "typeof", "case", "of", "in"}:
                    last = "="
                if word:
                    i += len(word[0])
                    continue
            i += 1
    blanked = "".join(masked)
    for literal in literals:
        literal.compared = literal.compared or (not literal.nested and _compared(blanked, literal))
    return literals, blanked


def _sink_spans(masked: str) -> list[tuple[int, int]]:
    """The expressions whose value a person reads: what is assigned to a text property, or
    given as one in an object."""
    spans = []
    for match in re.finditer(
        rf"\.(?:{SINK_PROPERTIES})\s*(?:=(?!=)|\+=)|\b(?:{SINK_PROPERTIES})\s*:", masked
    ):
        stop = ";" if match[0].rstrip().endswith("=") else ",}"
        depth = 0
        k = match.end()
        while k < len(masked):
            char = masked[k]
            if char in "([{":
                depth += 1
            elif char in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and char in stop:
                break
            k += 1
        spans.append((match.end(), k))
    return spans


def _compared(masked: str, literal: _Literal) -> bool:
    before = masked[: literal.start].rstrip()
    after = masked[literal.end :].lstrip()
    return (
        before.endswith(("==", "!=", "case"))
        or after.startswith(("==", "!=", ":") if before.endswith("case") else ("==", "!="))
        or (before.endswith("[") and after.startswith("]"))
    )


def _reads_as_prose(text: str) -> bool:
    text = text.strip()
    words = re.findall(r"[^\W\d_]+", text.replace(MARK, " "))
    if not any(word not in SAME_EVERYWHERE for word in words):
        return False
    if re.search(r"[<>{}=/#]|^\.|\s\.\w|[\w-]\[", text):
        return False  # markup, a selector, a path, a URL
    if re.fullmatch(r"[a-z0-9§ -]*[a-z]-[a-z§][a-z0-9§ -]*", text):
        return False  # class names
    spoken = [
        word for word in re.split(r"[\s" + MARK + r"]+", text) if re.search(r"[^\W\d_]{2,}", word)
    ]
    if len(spoken) >= 2:
        return True
    return (
        bool(re.fullmatch(r"[A-Z][a-z]+[.!?…:]?", text)) and text.rstrip(".!?…:") not in KEY_NAMES
    )


def unmarked_in_script(source: str, where: str = "") -> list[Unmarked]:
    """The visible string literals of a script that are not given to ``gettext()``."""
    literals, masked = _scan_js(source)
    spans = _sink_spans(masked)
    sink_calls = {
        call
        for literal in literals
        for callee, call, argument in literal.frames[-1:]
        if callee == "setAttribute" and argument == 0 and literal.text in SINK_ATTRIBUTES
    }
    found = []
    for literal in literals:
        callees = {callee for callee, _, _ in literal.frames}
        if callees & GETTEXT or (Path(where).name, literal.text) in SCRIPT_EXCEPTIONS:
            continue
        innermost = literal.frames[-1] if literal.frames else ("", 0, 0)
        in_sink = (
            any(start <= literal.start < end for start, end in spans)
            or (innermost[1] in sink_calls and innermost[2] == 1)
            or innermost[0] in {"alert", "confirm", "prompt"}
        )
        shown = in_sink and has_words(literal.text) and not literal.compared
        if shown or (
            _reads_as_prose(literal.text) and not callees & TECHNICAL_CALLS and not literal.compared
        ):
            found.append(Unmarked(where, literal.line, " ".join(literal.text.split())))
    return found


# The scanners, on small examples.


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("<p>Hello</p>", ["Hello"]),
        ('{% load i18n %}<p>{% translate "Hello" %}</p>', []),
        (
            "<p>{% blocktranslate trimmed %}Hi {{ name }}{% endblocktranslate %}</p>",
            [],
        ),
        ("<p>{{ name }} · {{ count }}</p>", []),
        ('<button title="Close" aria-label="{{ label }}">&times;</button>', ["Close"]),
        ('<input type="submit" value="Send"><input type="hidden" value="abc">', ["Send"]),
        ("<code>POST /api/games/</code> <kbd>Enter</kbd>", []),
        ('<span translate="no">D4 Q16</span> SGF', []),
        ("<script>const a = 'x y z';</script><style>p { color: red }</style>", []),
        ('<a href="{% url "home" %}"{% if x %} aria-current="page"{% endif %}>Home</a>', ["Home"]),
        ("{% comment %}Words here{% endcomment %}{# and here #}", []),
        ('{{ player|default:"Someone else" }}', ["Someone else"]),
        ('{% include "x.html" with where="header" %}', []),
        ('{% include "x.html" with caption=_("A board at the start.") %}', []),
    ],
)
def test_the_template_scan_finds_the_unmarked_words(template: str, expected: list[str]) -> None:
    assert [found.text for found in unmarked_in_template(template)] == expected


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ('box.textContent = "Your move";', ["Your move"]),
        ('box.textContent = gettext("Your move");', []),
        ("box.textContent = interpolate(gettext('%s to move'), [name]);", []),
        ('box.textContent = status === "done" ? "" : "Not yet.";', ["Not yet."]),
        ('tags.textContent = you ? "you" : "computer";', ["you", "computer"]),
        ('Object.assign(a, { textContent: "Join", className: "join-button" });', ["Join"]),
        ('svg.setAttribute("aria-label", `Board ${size}`);', ["Board §"]),
        ('svg.setAttribute("data-kind", "go");', []),
        ("say(`That did not work: ${error.message}`);", ["That did not work: §"]),
        ('$("#game .cell").addEventListener("click", play);', []),
        ('document.querySelectorAll("a, button");', []),
        ('if (event.key === "Enter") return "Pause";', ["Pause"]),
        ('const url = "/ws/game/" + code; // Not a "sentence here"', []),
        ("const re = /it's a regex/g; const x = 'ok';", []),
        ('alert("done");', ["done"]),
        ('showError(ngettext("One move", "%s moves", n));', []),
    ],
)
def test_the_script_scan_finds_the_unmarked_words(script: str, expected: list[str]) -> None:
    assert [found.text for found in unmarked_in_script(script)] == expected


# The site's own files.


def _templates() -> list[Path]:
    return sorted(
        path
        for folder in TEMPLATE_DIRS
        for path in folder.rglob("*")
        if path.suffix in {".html", ".txt"}
    )


def test_every_visible_string_of_the_templates_is_marked() -> None:
    found = [
        str(unmarked)
        for path in _templates()
        for unmarked in unmarked_in_template(path.read_text(), str(path.relative_to(ROOT)))
    ]
    assert found == []


def test_every_visible_string_of_the_scripts_is_marked() -> None:
    found = [
        str(unmarked)
        for scripts in SCRIPT_DIRS
        for path in sorted(scripts.rglob("*.js"))
        for unmarked in unmarked_in_script(path.read_text(), str(path.relative_to(ROOT)))
    ]
    assert found == []


def test_the_scripts_using_gettext_load_after_the_catalogue() -> None:
    """``gettext()`` is a global the /jsi18n/ script defines: the base template loads it
    in the head, before any script of the page."""
    base = (ROOT / "templates" / "base.html").read_text()
    assert base.index("javascript_catalog") < base.index("<script type=")
