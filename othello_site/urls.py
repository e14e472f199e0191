"""URLs: the home page, the help pages, the game pages, the players' pages, the admin, and
accounts (ours, on django-allauth's and Django's own views).

The help's routes are named here, at the site's level and without a namespace
(``help``, ``help-topic``, ``rules``, ``faq``), so that the templates of every app may
link a word to its explanation (``{% url 'help-topic' 'ratings' %}``), and so are the
pages that apps below link to: a player's profile (``profile``, the home app's page) and
a tournament's (``tournament``, named on a game's page): the site's own names are
everyone's, as ``home`` is (tests/site/test_layers.py)."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from accounts import views as account_views
from home import views as home
from manual import views as manual
from notifications import views as notification_views
from tournaments import views as tournaments

urlpatterns = [
    path("", home.home, name="home"),
    path("help/", manual.index, name="help"),
    path("help/<slug:topic>/", manual.topic, name="help-topic"),
    path("rules/", manual.rules, name="rules"),
    path("faq/", manual.faq, name="faq"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("language/", account_views.choose_language, name="language"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript_catalog"),
    path("notifications.json", notification_views.notifications_json, name="notifications_json"),
    path("notifications/", include("notifications.urls")),
    path("sw.js", notification_views.service_worker, name="service_worker"),
    path("accounts/", include("accounts.auth_urls")),
    # Before games' routes: challenges.urls holds /games/<id>/decline/, and both hold
    # routes under /players/ (before the players' /players/<username>/).
    path("", include("bots.urls")),
    path("", include("challenges.urls")),
    path("players/", include("players.urls")),
    # After the players' own /players/top/, /players/search/...: the profile page gathers
    # the players' profile and the challenges' button (home.views.profile).
    path("players/<str:username>/", home.profile, name="profile"),
    path("tournaments/<int:tournament_id>/", tournaments.tournament, name="tournament"),
    path("tournaments/", include("tournaments.urls")),
    path("", include("moderation.urls")),
    path("puzzles/", include("puzzles.urls")),
    path("", include("games.urls")),
]

# A bad request says why, in the site's look (403, 404 and 500: Django's own handlers
# render templates/403.html, 404.html and 500.html); both answer JSON to a request
# answered in JSON (othello_site.errors).
handler400 = "othello_site.errors.bad_request"
# A limit of the account pages (django-allauth's: sign-up, the password reset link) in the
# site's look; allauth looks for it here.
handler429 = "othello_site.errors.too_many_requests"
handler404 = "othello_site.errors.not_found"
