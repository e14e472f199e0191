"""The puzzles' routes (puzzles.views)."""

from django.urls import path

from puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("", views.page, name="page"),
    path("next.json", views.next_json, name="next_json"),
    path("<int:puzzle_id>/answer/", views.answer, name="answer"),
]
