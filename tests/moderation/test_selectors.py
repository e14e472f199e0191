"""moderation.selectors: the desk's cases, an account's mean review accuracy over its
reviewed rated games (the review's own figure), and the desk sorted by it."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from games.services import analysis
from moderation import selectors
from tests.games.services.test_analysis import finished_othello, run
from tests.moderation.helpers import account, logged_in, reported, staff

pytestmark = pytest.mark.django_db

# The finished games are two guests', Ann and Bob: the accounts here have other names.


def reviewed(game: Game) -> Game:
    """``game``'s review requested and run to the end (4x4: every position exact)."""
    analysis.request_analysis(game_id=game.public_id)
    now = timezone.now()
    [job] = analysis.claim_analyses(process="test", limit=1, now=now)
    run(job, "test", range(job.total), now)
    return game


def seated(game: Game, *, black: Any = None, white: Any = None, rated: bool = True) -> Game:
    """``game`` (two guests') as if the accounts ``black`` and ``white`` had played it."""
    fields: dict[str, Any] = {"rated": rated}
    if black is not None:
        fields["black_user"] = black
    if white is not None:
        fields["white_user"] = white
    Game.objects.filter(pk=game.pk).update(**fields)
    return Game.objects.get(pk=game.pk)


def accuracy_of(game: Game, color: str) -> int:
    summary = analysis.analysis_json(game.public_id)["summary"]  # type: ignore[index]
    return int(summary[color]["accuracy"])


def test_the_mean_accuracy_is_over_the_accounts_reviewed_rated_games_only() -> None:
    bob = account("sam")
    as_black = seated(reviewed(finished_othello(seed=3)), black=bob)
    as_white = seated(reviewed(finished_othello(seed=5)), white=bob)
    seated(reviewed(finished_othello(seed=7)), black=bob, rated=False)  # casual
    seated(finished_othello(seed=9), white=bob)  # not reviewed

    found = selectors.mean_accuracy(bob.pk)

    figures = [accuracy_of(as_black, "black"), accuracy_of(as_white, "white")]
    assert found == selectors.Accuracy(round(sum(figures) / 2, 1), 2)
    assert selectors.mean_accuracy(account("cleo").pk) == selectors.Accuracy(None, 0)


def test_the_desk_groups_open_reports_by_account_newest_first_or_by_accuracy() -> None:
    ann, bob, carol, dan = account("rita"), account("sam"), account("cleo"), account("dora")
    seated(reviewed(finished_othello(seed=3)), black=carol)
    old = timezone.now() - datetime.timedelta(hours=5)
    reported(ann, carol, "cheat", now=old)
    reported(dan, carol, "sandbag", now=old + datetime.timedelta(minutes=1))
    reported(ann, bob, "abuse")

    newest = selectors.desk()
    by_accuracy = selectors.desk(sort="accuracy")

    assert [case.account for case in newest] == [bob, carol]
    assert [report.reason for report in newest[1].reports] == ["sandbag", "cheat"]
    assert [case.account for case in by_accuracy] == [carol, bob]
    assert by_accuracy[0].accuracy.games == 1 and by_accuracy[1].accuracy.mean is None


def test_the_desk_page_sorts_by_accuracy_and_shows_it() -> None:
    ann, bob, carol = account("rita"), account("sam"), account("cleo")
    game = seated(reviewed(finished_othello(seed=3)), black=carol)
    reported(ann, carol, "cheat", now=timezone.now() - datetime.timedelta(hours=1))
    reported(ann, bob, "abuse")
    client: Client = logged_in(staff())

    page = client.get("/moderation/?sort=accuracy").content.decode()

    table = page.split('id="desk-accounts"')[1].split("</table>")[0]
    assert table.index('data-account="cleo"') < table.index('data-account="sam"')
    assert f"{float(accuracy_of(game, 'black'))} <span" in table
    assert 'aria-sort="descending"><a href="?sort=accuracy"' in table
