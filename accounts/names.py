"""The rules of every name a person types (a username, a guest's seat name, a tournament's
name), and the skeleton that tells two names apart or not.

``normalised`` refuses a name holding a character nobody sees or that breaks a line (a
control or format character: CR, LF, zero-width spaces, a soft hyphen, bidi controls), and
gives the name in Unicode's NFKC form (full-width letters are plain ones).

``skeleton`` is what a name looks like: NFKC, then casefold, then Unicode TR39's
confusable skeleton (each character replaced by the prototype it is confusable with:
Cyrillic "\u0430" by Latin "a", "1" by "l", "m" by "rn"). Two names with one skeleton
look alike: "alice", "ALICE", "\u0430lice" (Cyrillic) and "\uff41\uff4c\uff49\uff43\uff45"
(full-width) are one name.

The TR39 table (``confusables.txt``) comes with ``confusable-homoglyphs``, which keeps it
as a symmetric table of homoglyphs (each character with the ones it is confusable with,
both ways round): ``_prototypes`` gives each line of it its direction back.
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs.confusables import confusables_data
from django.utils.translation import gettext

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Control, format, surrogate, line and paragraph separator characters: none is in a name
(Cs and the separators too: a lone surrogate cannot be stored, and a separator breaks a
line as LF does)."""

_ROUNDS = 5
"""At most this many rounds of casefolding and mapping (every character of the table is
settled after three)."""

_LEFT_TO_RIGHT_MARK = "\u200e"
"""The table writes right-to-left characters between two of these (as the comments of
``confusables.txt`` show them): not part of the character."""


class BadName(ValueError):
    """A name holding a character no name may hold (``REFUSED_CATEGORIES``); the message
    says which."""


def normalised(name: str) -> str:
    """``name`` in Unicode's NFKC form (not trimmed). Raises BadName when it holds a
    control or format character (``REFUSED_CATEGORIES``), before anything else.

    >>> normalised("\\uff41\\uff4c\\uff49\\uff43\\uff45")
    'alice'
    """
    for character in name:
        if unicodedata.category(character) in REFUSED_CATEGORIES:
            raise BadName(
                gettext("a name may not hold %(character)s (an invisible or control character)")
                % {"character": _described(character)}
            )
    return unicodedata.normalize("NFKC", name)


def skeleton(name: str) -> str:
    """What ``name`` looks like: NFKC, casefolded, and TR39's skeleton of that (NFD, the
    format characters dropped, each character replaced by its prototype, NFD again),
    casefolded and mapped again until nothing changes (a few prototypes are capitals:
    "0" looks like "O", which is "o" in any case). Two names look alike when their
    skeletons are equal. Never raises.

    >>> skeleton("ALICE") == skeleton("\\u0430lice") == skeleton("alice")
    True
    >>> skeleton("0scar") == skeleton("Oscar")
    True
    >>> skeleton("alice") == skeleton("alicia")
    False
    """
    prototypes = _prototypes()
    shown = unicodedata.normalize("NFKC", name)
    for _ in range(_ROUNDS):
        folded = unicodedata.normalize("NFD", shown.casefold())
        mapped = unicodedata.normalize(
            "NFD",
            "".join(
                prototypes.get(character, character)
                for character in folded
                if unicodedata.category(character) != "Cf"
            ),
        )
        if mapped == shown:
            break
        shown = mapped
    return shown


def _described(character: str) -> str:
    named = unicodedata.name(character, "")
    return f"U+{ord(character):04X}" + (f" ({named})" if named else "")


@functools.cache
def _prototypes() -> dict[str, str]:
    """TR39's mapping, each confusable character to its prototype, from the symmetric
    table ``confusable_homoglyphs`` ships.

    Each line of ``confusables.txt`` maps one character (the source) to a prototype of
    one or more characters, and no prototype's character is a source. So a character
    is a prototype when it is in a prototype of several characters or has several
    homoglyphs (a source has just one: its prototype); the other one of a line is its
    source. A line left undecided (two characters, each the other's only homoglyph) is
    given the lower code point as the prototype: either way the two have one skeleton,
    which is all a skeleton is for.
    """
    table = {
        key.replace(_LEFT_TO_RIGHT_MARK, ""): [
            entry["c"].replace(_LEFT_TO_RIGHT_MARK, "") for entry in entries
        ]
        for key, entries in confusables_data.items()
    }
    prototypes = {
        character
        for key, homoglyphs in table.items()
        for character in (key if len(key) > 1 or len(homoglyphs) > 1 else "")
    }
    mapping: dict[str, str] = {}
    for key, homoglyphs in table.items():
        if len(key) != 1 or len(homoglyphs) != 1 or key in prototypes:
            continue
        [other] = homoglyphs
        if len(other) > 1 or other in prototypes or ord(other) < ord(key):
            mapping[key] = other
    return mapping
