"""The old name of ``gtpbot``, kept only so that ``python -m games.gtpbot`` still runs the
bridge: import ``gtpbot``."""
