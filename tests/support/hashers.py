"""The tests' password hasher: the server's PBKDF2-SHA256 at one iteration.

At the server's 1,000,000 iterations a hash takes a third of a second here, and the
accounts the tests make cost minutes of every run (Django's "Speeding up the tests").
The algorithm and the format stay the server's, the iterations written in each hash, so
a server process a test starts still checks the passwords the test set.
"""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1
