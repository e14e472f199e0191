"""HTTP routes of the game pages (mounted at the site root)."""

from django.urls import path

from games.views import analysis, game, lobby, records

app_name = "games"

urlpatterns = [
    path("games/new/", lobby.new_game, name="new"),
    # Before games/<id>/, which would take "import" for a game id.
    path("games/import/", records.import_record, name="import"),
    path("games/<str:game_id>/", game.game_page, name="game"),
    path("games/<str:game_id>/join/", game.join, name="join"),
    path("games/<str:game_id>/abort/", game.abort, name="abort"),
    path("games/<str:game_id>/state.json", game.state_json, name="state"),
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
