"""The stylesheets of static/css/ (static/css/base.css says how they fit together): a
selector is written once, and every stylesheet a template links exists.

A rule's selector is compared whole (its list of selectors, whitespace normalised),
within its @media context: the same selector in two files, or twice in one file, in the
same context, fails. Rules inside @keyframes are steps, not selectors; a @keyframes name
counts as a selector."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CSS = ROOT / "static" / "css"
TEMPLATES = ROOT / "templates"
STATIC_CSS_LINK = re.compile(r"""\{%\s*static\s+['"]([^'"]+\.css)['"]\s*%\}""")


def normalised(text: str) -> str:
    """One space between words, none inside a list's commas, one around combinators."""
    text = re.sub(r"\s*([>+~])\s*", r" \1 ", text)
    return ", ".join(" ".join(part.split()) for part in text.split(","))


def selectors(css: str) -> list[tuple[str, str]]:
    """Each rule's (context, selector): context is its @media's prelude, '' outside one."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found: list[tuple[str, str]] = []
    open_blocks: list[str] = []
    start = 0
    for index, char in enumerate(css):
        if char == "{":
            prelude = " ".join(css[start:index].split())
            in_keyframes = any(block.startswith("@keyframes") for block in open_blocks)
            if not in_keyframes and not prelude.startswith("@media"):
                media = [block for block in open_blocks if block.startswith("@media")]
                found.append((" and ".join(media), normalised(prelude)))
            open_blocks.append(prelude)
            start = index + 1
        elif char == "}":
            open_blocks.pop()
            start = index + 1
        elif char == ";":
            start = index + 1
    assert not open_blocks, "unbalanced braces"
    return found


def test_the_parser_reads_rules_in_their_media_contexts() -> None:
    css = """/* {not a rule} */
    .a, .b>.c { color: red; }
    @media (max-width: 480px) { .a { margin: 0; } }
    @keyframes spin { to { opacity: 0; } }"""
    assert selectors(css) == [
        ("", ".a, .b > .c"),
        ("@media (max-width: 480px)", ".a"),
        ("", "@keyframes spin"),
    ]


def test_no_selector_is_written_twice() -> None:
    where: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in sorted(CSS.glob("*.css")):
        for context, selector in selectors(path.read_text()):
            where[(context, selector)].append(path.name)
    twice = {
        f"{selector} {context}".strip(): files
        for (context, selector), files in where.items()
        if len(files) > 1
    }
    assert twice == {}


def test_every_linked_stylesheet_exists() -> None:
    linked = {
        (template.relative_to(TEMPLATES).as_posix(), name)
        for template in TEMPLATES.rglob("*.html")
        for name in STATIC_CSS_LINK.findall(template.read_text())
    }
    assert linked, "no template links a stylesheet"
    missing = sorted(pair for pair in linked if not (ROOT / "static" / pair[1]).is_file())
    assert missing == []


def test_no_template_writes_a_comment_over_two_lines() -> None:
    """Django's ``{# #}`` comments are one line: one that goes on to the next is shown to
    the visitor as text (``{% comment %}`` spans lines)."""
    root = Path(__file__).resolve().parents[2] / "templates"
    broken = [
        f"{path.relative_to(root)}:{number}"
        for path in sorted(root.rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "{#" in line and "#}" not in line.split("{#", 1)[1]
    ]
    assert broken == []
