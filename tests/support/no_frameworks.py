"""A pytest plugin that makes Django, Channels, daphne and asgiref unimportable, as on a
machine without them: the pure packages' suites run under it (docs/testing.md)."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

FRAMEWORKS = ("django", "channels", "daphne", "asgiref")


class Blocked(importlib.abc.MetaPathFinder):
    """Refuses every module of the frameworks."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname.split(".")[0] in FRAMEWORKS:
            raise ModuleNotFoundError(f"{fullname} is blocked", name=fullname)
        return None


loaded = sorted(name for name in sys.modules if name.split(".")[0] in FRAMEWORKS)
if loaded:
    raise RuntimeError(f"already imported: {loaded[:5]}")
sys.meta_path.insert(0, Blocked())
