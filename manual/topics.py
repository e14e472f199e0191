"""The help's topics, in the order the index lists them: each a page
``/help/<slug>/`` drawn from ``templates/manual/<slug>.html``."""

from __future__ import annotations

from dataclasses import dataclass, replace

from gamerules.base import Words, gettext_noop


@dataclass(frozen=True)
class Topic:
    """A help page: its address's ``slug``, its ``title`` (the page's heading) and a
    one-line ``summary`` for the index."""

    slug: str
    title: str
    summary: str

    def translated(self, words: Words) -> Topic:
        """The topic with its title and summary in ``words``' language."""
        return replace(self, title=words.gettext(self.title), summary=words.gettext(self.summary))

    @property
    def template(self) -> str:
        """The page's template."""
        return f"manual/{self.slug}.html"


TOPICS = (
    Topic(
        "rules-othello",
        gettext_noop("The rules of Othello"),
        gettext_noop("Placing a disc, flipping lines, passing, the end and the count."),
    ),
    Topic(
        "rules-go",
        gettext_noop("The rules of Go"),
        gettext_noop("Liberties and captures, ko, seki, the end of play and the count."),
    ),
    Topic(
        "clocks",
        gettext_noop("Clocks"),
        gettext_noop(
            "Fischer, absolute, byo-yomi, Canadian and correspondence clocks; first moves."
        ),
    ),
    Topic(
        "ratings",
        gettext_noop("Ratings"),
        gettext_noop("Glicko-2 in plain words: the ? of a provisional rating, RD, Go ranks."),
    ),
    Topic(
        "pairing",
        gettext_noop("Pairing"),
        gettext_noop("Play someone now: the pools, who is paired with whom, and how fast."),
    ),
    Topic(
        "tournaments",
        gettext_noop("Tournaments"),
        gettext_noop("Arenas, Swiss and McMahon tournaments, round robins: scores, berserk."),
    ),
    Topic(
        "review",
        gettext_noop("The review"),
        gettext_noop(
            "The engines' analysis of a game: the marks ?!, ? and ??, losses and accuracy."
        ),
    ),
    Topic(
        "puzzles",
        gettext_noop("Puzzles"),
        gettext_noop("Positions from real games with one good move: solving them, their rating."),
    ),
    Topic(
        "bots",
        gettext_noop("Bots"),
        gettext_noop("Accounts played by programs: challenging them, and running your own."),
    ),
    Topic(
        "fair-play",
        gettext_noop("Fair play"),
        gettext_noop("Reporting a player, what staff can do, and playbans."),
    ),
    Topic(
        "faq",
        gettext_noop("Questions and answers"),
        gettext_noop("Short answers to what players ask most."),
    ),
)

BY_SLUG = {topic.slug: topic for topic in TOPICS}
