"""WSGI entry point: plain HTTP only (no websockets); serve with daphne and asgi.py instead."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "othello_site.settings")

application = get_wsgi_application()
