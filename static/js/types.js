// The shapes the pages' modules share, as JSDoc types that `tsc -p .` checks (no build
// step: this module exports nothing at run time). The contract they follow:
// docs/api/README.md (G, M, points, colours) and docs/api/websocket.md (the messages).

/** @typedef {"black" | "white"} Color */
/** @typedef {"othello" | "go"} Kind */
/** @typedef {"waiting" | "active" | "scoring" | "finished" | "aborted"} Status */
/** A point of the board: `[row, column]` from the top left (docs/api/README.md). @typedef {[number, number]} Point */
/** Something per seat. @template T @typedef {{ black: T, white: T }} BySeat */

/**
 * M: a move (docs/api/README.md, "M: a move").
 * @typedef {object} Move
 * @property {number} ply
 * @property {Color} color
 * @property {"place" | "pass" | "resign" | "timeout" | "forfeit"} action
 * @property {Point | null} point
 * @property {Point[]} [flipped]
 * @property {Point[]} [captured]
 * @property {string} notation
 * @property {number | null} clock_ms
 */

/**
 * One side's clock, as of the moment G was built.
 * @typedef {object} SideClock
 * @property {number} remaining_ms
 * @property {number | null} periods
 * @property {number | null} stones
 * @property {boolean} overtime
 */

/**
 * G's `clock` (docs/api/README.md, "G's clock").
 * @typedef {object} Clock
 * @property {"fischer" | "byoyomi" | "canadian" | "absolute" | "correspondence"} system
 * @property {Color | null} running
 * @property {SideClock} black
 * @property {SideClock} white
 * @property {number | null} main_time
 * @property {number | null} increment
 * @property {number | null} periods
 * @property {number | null} period_time
 * @property {number | null} stones
 * @property {number | null} days
 * @property {string | null} first_move_by
 * @property {number | null} first_move_ms
 */

/**
 * A seat's rating in G's `ratings`.
 * @typedef {object} SeatRating
 * @property {string} username
 * @property {number} rating
 * @property {number} rd
 * @property {boolean} provisional
 * @property {number | null} change
 */

/**
 * Go's count for one side (G's `score_detail`).
 * @typedef {object} CountDetail
 * @property {number} territory
 * @property {number} prisoners
 * @property {number} dead
 * @property {number} stones
 * @property {number} komi
 * @property {number} total
 */

/**
 * G: the state of a game (docs/api/README.md, "G: the state of a game"). `moves` is
 * left out of a `moved` message's G: the page keeps its own list.
 * @typedef {object} G
 * @property {string} id
 * @property {Kind} kind
 * @property {number} size
 * @property {Status} status
 * @property {number} ply
 * @property {Color | null} to_move
 * @property {string[]} board
 * @property {Point[]} legal
 * @property {BySeat<string | null>} players
 * @property {BySeat<string | null>} accounts
 * @property {Color | null} you
 * @property {BySeat<number> | null} score
 * @property {string | null} result
 * @property {{ reason: "first_move" | "left" | "called_off", color: Color } | null} aborted
 * @property {number | null} komi
 * @property {number | null} handicap
 * @property {"territory" | "area" | null} scoring_method
 * @property {BySeat<number> | null} prisoners
 * @property {Point[] | null} dead
 * @property {BySeat<Point[]> | null} territory
 * @property {BySeat<CountDetail> | null} score_detail
 * @property {BySeat<boolean> | null} accepted
 * @property {number | null} marking
 * @property {Color | null} computer
 * @property {boolean} rated
 * @property {boolean} imported
 * @property {({ category: string } & BySeat<SeatRating | null>) | null} ratings
 * @property {BySeat<boolean>} bots
 * @property {{ to: string, bot: string | null, status: string, rated: boolean, reason: string | null, message: string | null } | null} challenge
 * @property {{ pool: string, ratings: BySeat<number>, seek: Record<string, unknown> } | null} paired
 * @property {{ id: string, name: string, round: number } | null} tournament
 * @property {Color | null} undo
 * @property {Color | string | null} rematch
 * @property {Clock | null} clock
 * @property {BySeat<boolean>} online
 * @property {BySeat<number | null>} away_ms
 * @property {number} abandon_seconds
 * @property {Move | null} last_move
 * @property {Move[]} [moves]
 */

/**
 * A line of a game's chat (docs/api/websocket.md, "Chat"): `name`, `username` and
 * `color` null for a comment of an imported record.
 * @typedef {object} ChatLine
 * @property {number} id
 * @property {string | null} name
 * @property {string | null} username
 * @property {Color | null} color
 * @property {string} text
 * @property {string} at
 */

/**
 * What the game socket sends (docs/api/websocket.md, "Server to client").
 * @typedef {{ type: "state", game: G }
 *   | { type: "moved", move: Move, game: G }
 *   | { type: "undone", game: G }
 *   | { type: "chat", message: ChatLine }
 *   | { type: "chat_history", messages: ChatLine[] }
 *   | { type: "rematch", game_id: string }
 *   | { type: "analysis", status: string, progress: number }
 *   | { type: "error", code: string, message: string, until?: string | null }} GameServerMessage
 */

/**
 * What the game page sends (docs/api/websocket.md, "Client to server").
 * @typedef {{ type: "play", ply: number, point: Point }
 *   | { type: "pass" | "undo" | "undo_accept" | "undo_decline", ply: number }
 *   | { type: "mark", point: Point, marking: number | null }
 *   | { type: "accept" | "resume", marking: number | null }
 *   | { type: "chat", text: string }
 *   | { type: "resign" | "sync" | "claim" | "rematch" | "berserk" }} GameClientMessage
 */

export {};
