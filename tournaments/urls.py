"""The tournaments' routes, under ``/tournaments/`` (a tournament's page,
``/tournaments/<id>/``, is named at the site's level, ``tournament``: othello_site.urls)."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.new, name="new"),
    path("<int:tournament_id>.json", views.tournament_json, name="json"),
    path("<int:tournament_id>/join/", views.join, name="join"),
    path("<int:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
    path("<int:tournament_id>/pause/", views.pause, name="pause"),
]
