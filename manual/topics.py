"""The help's topics, in the order the index lists them: each a page
``/help/<slug>/`` drawn from ``templates/manual/<slug>.html``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Topic:
    """A help page: its address's ``slug``, its ``title`` (the page's heading) and a
    one-line ``summary`` for the index."""

    slug: str
    title: str
    summary: str

    @property
    def template(self) -> str:
        """The page's template."""
        return f"manual/{self.slug}.html"


TOPICS = (
    Topic(
        "rules-othello",
        "The rules of Othello",
        "Placing a disc, flipping lines, passing, the end and the count.",
    ),
    Topic(
        "rules-go",
        "The rules of Go",
        "Liberties and captures, ko, seki, the end of play and the count.",
    ),
    Topic(
        "clocks",
        "Clocks",
        "Fischer, absolute, byo-yomi, Canadian and correspondence clocks; first moves.",
    ),
    Topic(
        "ratings",
        "Ratings",
        "Glicko-2 in plain words: the ? of a provisional rating, RD, Go ranks.",
    ),
    Topic(
        "pairing",
        "Pairing",
        "Play someone now: the pools, who is paired with whom, and how fast.",
    ),
    Topic(
        "tournaments",
        "Tournaments",
        "Arenas, Swiss and McMahon tournaments, round robins: pairing, scores, berserk.",
    ),
    Topic(
        "review",
        "The review",
        "The engines' analysis of a game: the marks ?!, ? and ??, losses and accuracy.",
    ),
    Topic(
        "bots",
        "Bots",
        "Accounts played by programs: challenging them, and running your own.",
    ),
    Topic("faq", "Questions and answers", "Short answers to what players ask most."),
)

BY_SLUG = {topic.slug: topic for topic in TOPICS}
