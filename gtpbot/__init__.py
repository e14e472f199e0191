"""gtpbot: the bridge that runs any GTP engine as a bot of this server.

    python -m gtpbot --url URL --token T [--kinds othello,go --sizes 8,9,19] \
        -- ENGINE ARGS...

(``python -m games.gtpbot`` is its old name.) Like lichess-bot and gtp2ogs, it speaks
only the server's public contract (HTTP and websockets, with the bot's token:
docs/bots.md#the-bridge), never the database or Django, so it runs on any machine
with the engine: ``bridge`` is the event loop over ``/ws/bot/`` and one task and one
engine process per game, reconnecting with backoff and picking its games up where they
stand; ``gameengine.gtp`` runs the engine's process; ``coords`` holds the pure
conversions between the contract's points and GTP's vertices, and what a bot accepts.

>>> from gtpbot import coords
>>> coords.to_vertex((0, 0), kind="go", size=9), coords.to_point("d3", kind="othello", size=8)
('A9', (2, 3))

What it does not do: choose moves (the engine does), keep state of its own between runs
(the server's ``state`` of each game is the truth), nor accept a challenge it cannot
play (the kinds, sizes and clocks of its command line).
"""
