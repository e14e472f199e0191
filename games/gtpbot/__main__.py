"""``python -m games.gtpbot ...``: the old name of ``python -m gtpbot ...``."""

from gtpbot.__main__ import main

main()
