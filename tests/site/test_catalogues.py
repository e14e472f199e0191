"""The shipped catalogues are complete and current: every entry of every language is
translated and none is fuzzy, they compile with their placeholders checked, and every
string the code marks (templates, Python, scripts) has its entry in each of them.

The marks are read as ``makemessages`` reads them: a template through Django's own
``templatize``, the Python modules' ``gettext``/``gettext_lazy``/``ngettext``/``pgettext``
calls (also as ``_``) through ``ast``, and the scripts' calls through the same tokens
(``tokenize`` reads a JavaScript string literal as Python reads its own)."""

from __future__ import annotations

import ast
import io
import shutil
import subprocess
import tokenize
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import polib
import pytest
from django.utils.translation.template import templatize

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("ja", "ko", "zh_Hans", "fr")
DOMAINS = ("django", "djangojs")
SKIPPED_FOLDERS = {".venv", "tests", "node_modules", "locale", "static", ".git", "bench"}

#: The calls that mark a string: the msgid first, or a context then the msgid.
PLAIN = {"gettext", "gettext_lazy", "_", "gettext_noop", "ngettext", "ngettext_lazy"}
CONTEXT = {"pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"}

Key = tuple[str | None, str]  # (msgctxt, msgid)


def catalogue(language: str, domain: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"))


def marks_in_calls(calls: Iterable[tuple[str, Sequence[object]]]) -> set[Key]:
    """The (context, msgid) of each marking call whose arguments are literal strings."""
    found: set[Key] = set()
    for name, args in calls:
        strings = [arg if isinstance(arg, str) else None for arg in args]
        if name in PLAIN and strings[:1] and strings[0]:
            found.add((None, strings[0]))
        elif name in CONTEXT and len(strings) > 1 and strings[0] and strings[1]:
            found.add((strings[0], strings[1]))
    return found


def calls_in_tokens(source: str) -> Iterator[tuple[str, list[object]]]:
    """``name("literal", "literal", ...)`` calls in a token stream (templatize's output,
    a script), with each argument a string or None when it is not one literal."""
    names = PLAIN | CONTEXT
    flat = "\n".join(line.lstrip() for line in source.splitlines())  # no indentation
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(flat).readline))
    except tokenize.TokenError:  # an unclosed bracket of the page: each line alone
        tokens = []
        for line in flat.splitlines():
            try:
                tokens.extend(tokenize.generate_tokens(io.StringIO(line).readline))
            except tokenize.TokenError:
                continue
    tokens = [
        token
        for token in tokens
        if token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT)
    ]
    for index, token in enumerate(tokens[:-1]):
        if token.type != tokenize.NAME or token.string not in names:
            continue
        if tokens[index + 1].string != "(":
            continue
        args: list[object] = []
        current: str | None = ""
        for inner in tokens[index + 2 :]:
            if inner.string in (",", ")"):
                args.append(current)
                current = ""
                if inner.string == ")":
                    break
            elif inner.type == tokenize.STRING and current is not None:
                try:
                    current += ast.literal_eval(inner.string)
                except (ValueError, SyntaxError):
                    current = None
            elif inner.string != "+":
                current = None
        yield token.string, args


def template_marks() -> set[Key]:
    found: set[Key] = set()
    for folder in [ROOT / "templates", *sorted(ROOT.glob("*/templates"))]:
        for path in sorted(folder.rglob("*.html")) + sorted(folder.rglob("*.txt")):
            source = templatize(path.read_text(), origin=str(path))
            found |= marks_in_calls(calls_in_tokens(source))
    return found


def python_marks() -> set[Key]:
    found: set[Key] = set()
    for path in sorted(ROOT.rglob("*.py")):
        if SKIPPED_FOLDERS & set(path.relative_to(ROOT).parts):
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        calls = (
            (
                node.func.id if isinstance(node.func, ast.Name) else node.func.attr,
                [arg.value if isinstance(arg, ast.Constant) else None for arg in node.args],
            )
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute)
        )
        found |= marks_in_calls(calls)
    return found


def script_marks() -> set[Key]:
    found: set[Key] = set()
    scripts = [ROOT / "static" / "js", *sorted(ROOT.glob("*/static/js"))]
    for path in sorted(path for folder in scripts for path in folder.rglob("*.js")):
        # JavaScript's comments and template literals are not Python's: keep the lines
        # with a marking call, which are plain calls of string literals.
        lines = [line for line in path.read_text().splitlines() if "gettext(" in line]
        source = "\n".join(line.split("//")[0] if "//" in line else line for line in lines)
        found |= marks_in_calls(calls_in_tokens(source.replace("`", "'")))
    return found


def keys(po: polib.POFile) -> set[Key]:
    return {(entry.msgctxt, entry.msgid) for entry in po if not entry.obsolete}


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(language: str, domain: str) -> None:
    po = catalogue(language, domain)

    untranslated = [entry.msgid for entry in po.untranslated_entries()]
    fuzzy = [entry.msgid for entry in po.fuzzy_entries()]
    assert not untranslated, f"{language}/{domain}: {len(untranslated)} untranslated"
    assert not fuzzy, f"{language}/{domain}: fuzzy entries {fuzzy[:5]}"
    assert not po.metadata_is_fuzzy, f"{language}/{domain}: the header is fuzzy"
    assert po.metadata["Language"] == language


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_plural_forms_are_the_languages(language: str) -> None:
    expected = "nplurals=2; plural=(n > 1);" if language == "fr" else "nplurals=1; plural=0;"
    for domain in DOMAINS:
        forms = catalogue(language, domain).metadata["Plural-Forms"].replace(" ", "")
        assert forms.rstrip(";") == expected.replace(" ", "").rstrip(";")


@pytest.mark.skipif(not shutil.which("msgfmt"), reason="the test command installs gettext")
@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogues_compile_with_their_placeholders_checked(language: str, domain: str) -> None:
    path = ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    checked = subprocess.run(
        ["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr


def test_every_marked_string_of_the_code_is_in_each_catalogue() -> None:
    marked = {"django": template_marks() | python_marks(), "djangojs": script_marks()}
    assert len(marked["django"]) > 300 and len(marked["djangojs"]) > 50  # the readers read
    for language in LANGUAGES:
        for domain, wanted in marked.items():
            missing = sorted(wanted - keys(catalogue(language, domain)), key=str)
            assert not missing, (
                f"{language}/{domain}: {len(missing)} marked strings not in the catalogue "
                f"(run makemessages, docs/translations.md): {missing[:8]}"
            )


def test_the_readers_find_a_mark_of_each_kind() -> None:
    template = templatize(
        '{% load i18n %}{% translate "Pass" context "the move" %}'
        "{% blocktranslate count n=k %}one game{% plural %}{{ n }} games{% endblocktranslate %}"
    )
    assert marks_in_calls(calls_in_tokens(template)) == {("the move", "Pass"), (None, "one game")}
    script = 'x.textContent = interpolate(gettext("%(name)s moved"), {name}, true);'
    assert marks_in_calls(calls_in_tokens(script)) == {(None, "%(name)s moved")}
    python = ast.parse('_("Resign")\npgettext_lazy("colour", "Black")\nf(x)')
    calls = (
        (node.func.id, [arg.value if isinstance(arg, ast.Constant) else None for arg in node.args])
        for node in ast.walk(python)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    )
    assert marks_in_calls(calls) == {(None, "Resign"), ("colour", "Black")}
