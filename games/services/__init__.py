"""The use cases: every change to a game goes through one of these functions.

Each runs in one transaction, locks the game row (``base.locked``: ``select_for_update``;
on SQLite the immediate transaction's write lock does it), checks the caller against the
contract's error order, asks the rules module, writes the moves and the new snapshot, and
schedules its broadcast for after the commit (``base.on_commit``, ``games.realtime.events``). A
failure raises ``GameError`` before anything is written.

Who is calling is an ``accounts.players.Player``, built by views and consumers from the
request's or the websocket's session and account, never from anything a client sends.

One module a use case family, as Zulip's ``zerver/actions``: ``lobby`` (create, join,
call off, a guest's seats to an account, the count of games being played), ``play``
(moves), ``scoring`` (Go's count), ``clock`` (first moves, charging, the flag, the
site's downtime), ``presence`` (who is online, claiming a game left, ending a game
against the computer left for a day), ``computer`` (the computer's seat, turns and
moves), ``table`` (chat, taking back a move, rematch), ``imports`` (records); ``base``
holds what they share. Callers use this package's names.
"""

from games.services.analysis import (
    AnalysisJob,
    Exploration,
    NotFinished,
    analysis_json,
    claim_analyses,
    explore,
    go_command,
    release_analysis,
    request_analysis,
    review_accuracy,
    sgf_comments,
    store_verdict,
)
from games.services.base import ERROR_CODES, GameError, said
from games.services.clock import credit_downtime, flag, flag_due, halve_clock
from games.services.computer import (
    Turn,
    claim_turns,
    computer_count,
    computer_move,
    release_turn,
)
from games.services.imports import import_game
from games.services.lobby import (
    DEFAULT_KOMI,
    HANDICAP_KOMI,
    KOMI_LIMIT,
    NAME_MAX_LENGTH,
    OTHELLO_MAX_SIZE,
    NewPair,
    Seat,
    abort,
    abort_as_admin,
    claim_guest_seats,
    create_game,
    join_game,
    recount_playing,
    start_games,
)
from games.services.play import pass_turn, play, resign
from games.services.presence import (
    claim,
    connected,
    disconnected,
    end_deserted,
    heartbeat,
    sweep,
)
from games.services.scoring import accept, mark, resume
from games.services.table import (
    accept_undo,
    ask_undo,
    chat_history,
    decline_undo,
    offer_rematch,
    say,
)

__all__ = [
    "DEFAULT_KOMI",
    "ERROR_CODES",
    "HANDICAP_KOMI",
    "KOMI_LIMIT",
    "NAME_MAX_LENGTH",
    "OTHELLO_MAX_SIZE",
    "AnalysisJob",
    "Exploration",
    "GameError",
    "NewPair",
    "NotFinished",
    "Seat",
    "Turn",
    "abort",
    "abort_as_admin",
    "accept",
    "accept_undo",
    "analysis_json",
    "ask_undo",
    "chat_history",
    "claim",
    "claim_analyses",
    "claim_guest_seats",
    "claim_turns",
    "computer_count",
    "computer_move",
    "connected",
    "create_game",
    "credit_downtime",
    "decline_undo",
    "disconnected",
    "end_deserted",
    "explore",
    "flag",
    "flag_due",
    "go_command",
    "halve_clock",
    "heartbeat",
    "import_game",
    "join_game",
    "mark",
    "offer_rematch",
    "pass_turn",
    "play",
    "recount_playing",
    "release_analysis",
    "release_turn",
    "request_analysis",
    "resign",
    "resume",
    "review_accuracy",
    "said",
    "say",
    "sgf_comments",
    "start_games",
    "store_verdict",
    "sweep",
]
