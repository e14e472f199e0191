"""The bridge that runs any GTP engine as a bot of this server (docs/bots.md#the-bridge).

    python -m games.gtpbot --url URL --token T [--kinds othello,go --sizes 8,9,19] \
        -- ENGINE ARGS...

It speaks only the public contract (HTTP and websockets with the bot's token), never
the database or Django, so it runs on any machine: ``bridge`` is the event loop over
``/ws/bot/`` and one task per game, ``gtp`` (games.engine.gtp) the engine's process,
``coords`` the pure conversions between the contract's points and GTP's vertices.
"""
