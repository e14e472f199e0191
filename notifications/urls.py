"""HTTP routes of notifications (under /notifications/; the JSON and the service worker
at the site's root: othello_site.urls)."""

from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("", views.notification_list, name="list"),
    path("read/", views.mark_read, name="read"),
    path("settings/", views.notification_settings, name="settings"),
    path("push/", views.push_subscription, name="push"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
