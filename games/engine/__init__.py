"""Computer opponents: pure engines and bridges to engine processes; no Django.

``othello`` is this project's Othello engine (pure Python on the rules module's
positions); ``gnugo`` speaks to GNU Go over GTP (``gtp``); ``answer`` turns one of the
server's turns, as plain data, into the computer's answer. Nothing here imports Django,
so it runs anywhere: in the server's worker processes, in a benchmark, in a test.
"""
