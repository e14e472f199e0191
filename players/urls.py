"""HTTP routes of the players' world, under /players/ (the profile page,
``/players/<username>/``, is the home app's: it gathers the parts of the apps above)."""

from django.urls import path

from players import views

app_name = "players"

urlpatterns = [
    # Before <username>/, which would take "top" for a name.
    path("top/", views.top, name="top"),
    path("top.json", views.top_json, name="top_json"),
    path("search.json", views.search_json, name="search_json"),
    path("search/", views.search, name="search"),
    path("<str:username>.json", views.profile_json, name="profile_json"),
    *(
        path(f"<str:username>/{action}/", views.relation, {"action": action}, name=action)
        for action in views.RELATIONS
    ),
]
