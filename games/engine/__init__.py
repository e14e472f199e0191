"""Computer opponents: pure Python engines that choose a move for a position.

Each game's engine lives in its own package (``othello``) and imports nothing
but ``games.rules``, so it runs anywhere: in a worker thread of the server, in
a benchmark, in a test.
"""
