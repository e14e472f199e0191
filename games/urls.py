"""HTTP routes of the game pages (mounted at the site root)."""

from django.urls import path

from games import analysis_views, record_views, views

app_name = "games"

urlpatterns = [
    path("games/new/", views.new_game, name="new"),
    # Before games/<id>/, which would take "import" for a game id.
    path("games/import/", record_views.import_record, name="import"),
    path("games/<str:game_id>/", views.game_page, name="game"),
    path("games/<str:game_id>/join/", views.join, name="join"),
    path("games/<str:game_id>/abort/", views.abort, name="abort"),
    path("games/<str:game_id>/state.json", views.state_json, name="state"),
    path("accounts/games/", views.my_games, name="my_games"),
    # Game records: the archive, the replay, the board picture, SGF (games.record_views).
    path("games/", record_views.archive, name="archive"),
    path("games/<str:game_id>/replay/", record_views.replay, name="replay"),
    path("games/<str:game_id>/board.svg", record_views.board_picture, name="board_svg"),
    path("games/<str:game_id>/sgf", record_views.sgf, name="sgf"),
    path("games/<str:game_id>/transcript", record_views.transcript, name="transcript"),
    # The engines' review (games.analysis_views).
    path("games/<str:game_id>/analysis/", analysis_views.request_analysis, name="analysis"),
    path("games/<str:game_id>/analysis.json", analysis_views.analysis_json, name="analysis_json"),
    path("games/<str:game_id>/explore.json", analysis_views.explore_json, name="explore"),
]
