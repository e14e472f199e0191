"""gameengine: the computer's opponents and reviewers, as plain Python.

No Django and no server: the engines take positions of ``gamerules`` or plain data
(mappings, lists) and answer plain data, so the server's worker processes, the
benchmarks (``bench/``) and the tests run them alike.

What it does:

- ``othello``: this project's Othello engine on any even size (negascout with a
  transposition table, a static evaluation, an exact endgame solver), ten levels;
  ``othello.review`` judges a game's positions.
- ``gtp``: a synchronous client of the Go Text Protocol over an engine's pipes (one
  command in flight, a timeout on every call, the process killed with its owner);
  ``gnugo`` and ``katago`` drive GNU Go and KataGo through it (KataGo's analysis engine
  over JSON), ``katago_levels`` makes KataGo's weaker levels, ``go_review`` reads a GTP
  engine's verdicts.
- ``answer`` (a computer's turn), ``analysis`` (a position's verdict for the review) and
  ``explore`` (the explore board's question): one call each, from a plain mapping to a
  plain mapping, which is what crosses into a worker process.
- ``review`` and ``accuracy``: the judgement of a move from the evaluations before and
  after it, and a game's accuracy, as pure functions.
- ``lifeline``: an engine process dies with the process that started it.

>>> from gamerules import new_position
>>> from gameengine.othello import choose_move
>>> start = new_position("othello", 8)
>>> choose_move(start, level=1, seed=1) in start.legal_moves()
True

What it does not do: know a game's players, clocks or database (the server asks it one
turn at a time, and keeps its processes in a pool: ``games.workers.engines``), ship GNU
Go or KataGo (the operating system's packages and ``scripts/katago.sh`` install them), or
speak to a server (``gtpbot`` does, for an engine that plays as a bot).
"""
