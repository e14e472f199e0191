"""The live game: its page, its socket, and the game state G they send (lila's
``modules/round``, above ``modules/game``). The top floor of the apps: it imports the
stored game (``games``) and every app that has a say in G directly, and nothing imports it
(docs/architecture.md)."""
