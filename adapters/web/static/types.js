// @ts-check
// types.js holds the types of what the server sends the page, as JSDoc
// for the type checker (tsc --checkJs): they mirror the Go types of
// state.go, field for field by their JSON names, so that a field renamed
// on one side fails a check. The page never loads this module.

/**
 * State is a game as the page shows it (Go: State).
 * @typedef {object} State
 * @property {number} v
 * @property {'challenge'|'setup'|'playing'|'finished'|'gone'} phase
 * @property {string} game
 * @property {number} size
 * @property {string[][]} [rows]
 * @property {Object<string, number>} [numbers]
 * @property {string[]} [playable]
 * @property {string[][]} [camps]
 * @property {Piece[]} pieces
 * @property {number} turn
 * @property {string} fen
 * @property {string[]} [movable]
 * @property {Move[]} [moves]
 * @property {Move} [last]
 * @property {Seat[]} seats
 * @property {number[]} [you]
 * @property {Played[]} history
 * @property {number[]} [drawOffer]
 * @property {number[]} [takeback]
 * @property {number[]} [pending]
 * @property {string[]} [huffable]
 * @property {string} [deadline]
 * @property {string} now
 * @property {number} winner
 * @property {string} [gameId]
 * @property {BoardWords} words
 */

/**
 * BoardWords are what a state says, in the page's language (Go: BoardWords).
 * @typedef {object} BoardWords
 * @property {string} title
 * @property {string} players
 * @property {string} status
 * @property {string[]} [notes]
 * @property {string} [last]
 */

/**
 * Piece is a piece on a square (Go: Piece): its seat, its level, the
 * level of the piece it carries.
 * @typedef {object} Piece
 * @property {string} s
 * @property {number} o
 * @property {number} l
 * @property {number} [c]
 */

/**
 * Move is a legal move (Go: Move): its text, its squares, the squares it
 * captures.
 * @typedef {object} Move
 * @property {string} t
 * @property {string} f
 * @property {string} to
 * @property {string[]} [p]
 * @property {string[]} [x]
 * @property {boolean} [pass]
 */

/**
 * Seat is one seat of the game (Go: Seat).
 * @typedef {object} Seat
 * @property {string} label
 * @property {string} player
 * @property {string} colour
 * @property {boolean} [computer]
 * @property {boolean} [retired]
 */

/**
 * Played is one move of the move list (Go: Played).
 * @typedef {object} Played
 * @property {number} seat
 * @property {string} t
 */

/**
 * Frames are a finished game's positions (Go: Frames): pieces[0] before
 * the first move, pieces[i] after history[i-1], moves[i-1] that move.
 * @typedef {object} Frames
 * @property {Piece[][]} pieces
 * @property {Move[]} moves
 * @property {Review} [review]
 */

/**
 * Review is a finished game's stored review (Go: Review): plies[i] is
 * the review of history[i], accuracy each seat's.
 * @typedef {object} Review
 * @property {ReviewPly[]} plies
 * @property {number[]} accuracy
 */

/**
 * ReviewPly is one ply of a review (Go: ReviewPly): its seat, each
 * seat's winning chances after it (0..1), the evaluation, and for a
 * marked move its mark, the better move and the legal moves before it.
 * @typedef {object} ReviewPly
 * @property {number} seat
 * @property {number[]} c
 * @property {number} e
 * @property {string} [mark]
 * @property {Move} [best]
 * @property {Move[]} [moves]
 */

/**
 * TryAnswer is the answer to a move tried at a mistake (Go: TryAnswer,
 * POST /g/{ref}/better).
 * @typedef {object} TryAnswer
 * @property {boolean} ok
 * @property {boolean} accepted
 * @property {number} chances
 * @property {number} best
 * @property {string} line
 */

/**
 * Login is the answer to the Mini App's sign-in (POST /tg/login).
 * @typedef {object} Login
 * @property {string} [token]
 * @property {string} [ref]
 * @property {string} [mode]
 * @property {string} [lang]
 * @property {Object<string, string>} [words]
 * @property {string} [error]
 */

/**
 * Pass is a page's stream token (GET /g/{ref}/pass): it works for
 * seconds, and the link plays or watches (mode).
 * @typedef {object} Pass
 * @property {string} token
 * @property {number} seconds
 * @property {string} mode
 * @property {string} lang
 * @property {Object<string, string>} words
 */

/**
 * Answer is the answer to an action (POST /g/{ref}/{action}).
 * @typedef {object} Answer
 * @property {boolean} [ok]
 * @property {string} [error]
 */

export {};
