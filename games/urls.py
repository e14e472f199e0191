"""HTTP routes of the stored games' pages (mounted at the site root, in one namespace
with the live game's, ``live.urls``: a game's own page is the live app's)."""

from django.urls import path

from games.views import analysis, lobby, records

app_name = "games"

urlpatterns = [
    path("games/new/", lobby.new_game, name="new"),
    # Before the live game's games/<id>/, which would take "import" for a game id.
    path("games/import/", records.import_record, name="import"),
    path("accounts/games/", lobby.my_games, name="my_games"),
    # Game records: the archive, the replay, the board picture, SGF (games.views.records).
    path("games/", records.archive, name="archive"),
    path("games/<str:game_id>/replay/", records.replay, name="replay"),
    path("games/<str:game_id>/board.svg", records.board_picture, name="board_svg"),
    path("games/<str:game_id>/sgf", records.sgf, name="sgf"),
    path("games/<str:game_id>/transcript", records.transcript, name="transcript"),
    # The engines' review (games.views.analysis).
    path("games/<str:game_id>/analysis/", analysis.request_analysis, name="analysis"),
    path("games/<str:game_id>/analysis.json", analysis.analysis_json, name="analysis_json"),
    path("games/<str:game_id>/explore.json", analysis.explore_json, name="explore"),
]
