"""manual.views: the help pages answer, each with its headings in order and the figures
of the code it describes; /help/, /rules/ and /faq/ answer; every page's header links
to the help."""

from __future__ import annotations

import datetime
import itertools
import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from accounts.players import Player
from gamerules.clock import TimeControl
from games.services import lobby
from manual import diagrams
from manual.topics import TOPICS
from moderation import playban_rules
from pairing import pools

pytestmark = pytest.mark.django_db

HEADINGS = {
    "rules-othello": ["The board and the start", "A move", "Passing", "The end"],
    "rules-go": ["Liberties and capture", "Ko", "Seki", "The count", "Handicap"],
    "clocks": ["The systems", "First moves", "When your opponent leaves"],
    "ratings": ["How a rating moves", "RD", "Provisional ratings", "Go ranks"],
    "pairing": ["The pools", "Who plays whom"],
    "tournaments": ["Arena", "Swiss", "McMahon", "Round robin"],
    "review": ["A move's loss", "The marks", "Accuracy"],
    "puzzles": ["Where the puzzles come from", "Solving a puzzle", "The puzzle rating"],
    "bots": ["Challenging a bot", "Running your own bot"],
    "fair-play": ["Reporting a player", "What staff can do", "Playbans"],
    "faq": ["Do I need an account?", "What does the ? after a rating mean?"],
}


class Outline(HTMLParser):
    """A page's headings (level and text), its links, the ids of its elements and
    its inline SVGs."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[tuple[int, str]] = []
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.svgs: list[dict[str, str | None]] = []
        self._heading: int | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(found["id"] or "")
        if re.fullmatch(r"h[1-6]", tag):
            self._heading = int(tag[1])
            self.headings.append((self._heading, ""))
        elif tag == "a" and found.get("href"):
            self.links.append(found["href"] or "")
        elif tag == "svg":
            self.svgs.append(found)

    def handle_endtag(self, tag: str) -> None:
        if re.fullmatch(r"h[1-6]", tag):
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            level, text = self.headings[-1]
            self.headings[-1] = (level, " ".join(f"{text} {data}".split()))


def outline(path: str) -> Outline:
    response = Client().get(path)
    assert response.status_code == 200, path
    parsed = Outline()
    parsed.feed(response.content.decode())
    return parsed


@pytest.mark.parametrize("path", ["/help/", "/rules/", "/faq/"])
def test_the_help_the_rules_and_the_faq_answer(path: str) -> None:
    page = outline(path)

    assert page.headings[0][0] == 1
    assert "/help/" in page.links


def test_the_index_links_every_topic() -> None:
    page = outline("/help/")

    assert [f"/help/{topic.slug}/" for topic in TOPICS] == [
        link for link in page.links if link.startswith("/help/") and link != "/help/"
    ]
    assert [text for level, text in page.headings if level == 2] == [
        topic.title for topic in TOPICS
    ]


@pytest.mark.parametrize("topic", TOPICS, ids=lambda topic: topic.slug)
def test_each_topic_renders_with_its_headings_in_order(topic: object) -> None:
    slug = topic.slug  # type: ignore[attr-defined]
    page = outline(f"/help/{slug}/")

    levels = [level for level, _ in page.headings]
    assert levels[0] == 1 and page.headings[0][1] == topic.title  # type: ignore[attr-defined]
    assert all(later - earlier <= 1 for earlier, later in itertools.pairwise(levels))
    texts = [text for _, text in page.headings]
    for heading in HEADINGS[slug]:
        assert any(text.startswith(heading) for text in texts), (slug, heading, texts)
    # Every other topic is linked from the foot of the page.
    assert {f"/help/{other.slug}/" for other in TOPICS} <= set(page.links)


def test_an_unknown_topic_is_404() -> None:
    assert Client().get("/help/chess/").status_code == 404


def test_the_faq_has_one_canonical_address() -> None:
    for path in ("/faq/", "/help/faq/"):
        page = Client().get(path).content.decode()
        assert '<link rel="canonical" href="http://testserver/help/faq/">' in page


@pytest.mark.parametrize(
    ("path", "pictures"),
    [
        ("/help/rules-othello/", "rules-othello"),
        ("/help/rules-go/", "rules-go"),
        ("/rules/", "rules"),
    ],
)
def test_the_rules_pages_draw_their_diagrams_inline(path: str, pictures: str) -> None:
    page = outline(path)

    assert [svg.get("aria-label") for svg in page.svgs] == [
        diagram.label for diagram in diagrams.PAGES[pictures]
    ]
    assert all(svg.get("role") == "img" for svg in page.svgs)


def test_the_anchors_that_other_pages_link_exist() -> None:
    assert {"provisional", "rd", "go-ranks", "categories", "rated-games"} <= outline(
        "/help/ratings/"
    ).ids
    assert {"first-moves", "fischer", "byoyomi"} <= outline("/help/clocks/").ids
    assert "marks" in outline("/help/review/").ids


def text_of(path: str) -> str:
    html = Client().get(path).content.decode()
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_pages_quote_the_code() -> None:
    clocks = text_of("/help/clocks/")
    assert TimeControl.byoyomi(main_time=600, periods=5, period_time=30).describe() in clocks
    assert "30 seconds from the start of its turn" in clocks  # FIRST_MOVE_SECONDS

    ratings = text_of("/help/ratings/")
    assert "Everyone starts at 1500" in ratings
    assert "While its RD is above 110, a rating is provisional" in ratings
    assert "1500 6k" in ratings and "2200 4d" in ratings
    assert "settled after 10 games" in ratings

    pairing = text_of("/help/pairing/")
    assert all(pool.game in pairing for pool in pools.POOLS)
    assert "your rating ± (200 + 20 \N{MULTIPLICATION SIGN} the seconds you have waited)" in pairing
    assert "10 1200 to 2000" in pairing

    review = text_of("/help/review/")
    assert "?! inaccuracy 4 3" in review and "?? blunder 16 12" in review
    assert "6x6: 2, 5 and 9 discs" in review

    go = text_of("/help/rules-go/")
    assert "Total 22 18.5" in go and "Result: B+3.5" in go


def test_the_fair_play_page_quotes_the_playbans_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    fair_play = text_of("/help/fair-play/")
    assert "lets 3 games within 24 hours end at the first-move deadline" in fair_play
    assert "for 15 minutes. Each time it happens again within 7 days, the wait doubles" in fair_play
    assert "up to 24 hours" in fair_play

    monkeypatch.setattr(playban_rules, "NO_MOVES", 4)
    monkeypatch.setattr(playban_rules, "FIRST_BAN", datetime.timedelta(minutes=10))
    changed = text_of("/help/fair-play/")
    assert "lets 4 games within 24 hours" in changed and "for 10 minutes" in changed


def test_the_review_help_says_how_accuracy_is_worked_out_without_the_repositorys_files() -> None:
    review = text_of("/help/review/")
    assert not re.search(r"\bdocs/|\.md\b|\.py\b", review)
    assert "a mistake from an even position takes its player's chances from 50 in 100" in review
    assert "Fourteen perfect moves and one blunder make about 80" in review


def test_every_page_links_the_help_from_its_header() -> None:
    for path in ("/", "/games/", "/players/top/", "/help/ratings/"):
        header = Client().get(path).content.decode().split("</header>")[0]
        assert re.search(r'<a href="/help/"[^>]*>Help</a>', header), path
    help_page = Client().get("/help/").content.decode().split("</header>")[0]
    assert '<a href="/help/" aria-current="page">Help</a>' in help_page


def test_the_pages_link_their_words_to_the_help() -> None:
    game = lobby.create_game(
        player=Player(session_key="s"),
        new=lobby.NewGame(kind="othello", size=8, color="black", name="Ann"),
    )
    home = Client().get("/").content.decode()
    assert 'href="/help/pairing/"' in home and 'href="/help/clocks/"' in home
    replay = Client().get(f"/games/{game.public_id}/replay/").content.decode()
    assert 'href="/help/review/"' in replay
    assert 'href="/help/bots/"' in Client().get("/players/bots/").content.decode()
