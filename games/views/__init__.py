"""HTTP views of the games app, one module a page family: ``lobby`` (create, a player's
games), ``records`` (the archive, replay, pictures, SGF, imports), ``analysis`` (the
engines' review). A game's own page (join, call off, its state) is the live app's."""
