"""HTTP views of the games app, one module a page family: ``lobby`` (create, a player's
games), ``game`` (a game's page, join, call off, its state), ``records`` (the archive,
replay, pictures, SGF, imports), ``analysis`` (the engines' review)."""
