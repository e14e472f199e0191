"""The VAPID key pair that signs this server's Web Push messages: from
``VAPID_PRIVATE_KEY`` (PEM, or the raw key base64url-encoded) and ``VAPID_PUBLIC_KEY``,
else made once and kept beside the database (``VAPID_KEY_FILE``, a PEM file readable by
its user only), so that devices' subscriptions outlive a restart."""

from __future__ import annotations

import base64
import functools
import os
from typing import Any

from django.conf import settings


@functools.cache
def _vapid() -> Any:
    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid

    given = settings.VAPID_PRIVATE_KEY
    if given:
        return Vapid.from_pem(given.encode()) if "BEGIN" in given else Vapid.from_string(given)
    path = settings.VAPID_KEY_FILE
    if not path.exists():
        made = Vapid()
        made.generate_keys()
        pem = made.private_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first: theirs is the key
            pass
        else:
            with os.fdopen(descriptor, "wb") as file:
                file.write(pem)
    return Vapid.from_file(str(path))


def vapid_private_key() -> Any:
    """The key pair as pywebpush takes it (a ``py_vapid.Vapid``)."""
    return _vapid()


def vapid_public_key() -> str:
    """The public key as a browser's ``PushManager.subscribe`` takes it
    (``applicationServerKey``): the uncompressed point, base64url without padding."""
    if settings.VAPID_PUBLIC_KEY:
        return str(settings.VAPID_PUBLIC_KEY)
    from cryptography.hazmat.primitives import serialization

    point = _vapid().public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()
