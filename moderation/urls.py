"""Moderation's routes: reports, the staff desk, an account's case and its actions, the
log (moderation.views)."""

from django.urls import path

from moderation import views

app_name = "moderation"

urlpatterns = [
    path("reports/", views.report, name="report"),
    path("moderation/", views.desk, name="desk"),
    path("moderation/log.json", views.log_json, name="log_json"),
    path("moderation/<str:username>/", views.account, name="account"),
]
