// Package sessions holds the bot's game sessions: one per session key
// (platform + channel + thread). A session goes from a challenge
// (/play) through its acceptance, an optional formation step (/setup), the
// moves of the game, draw offers and resignations, to its end, when the
// finished game goes to the history and the session key is free again.
//
// The Service checks who may act, asks the rules packages to parse and play
// moves, and commits every change of a session in one transaction of its
// Store before it answers; when the commit fails, the session stays as it
// was. Each session has its own lock, so different sessions never wait on
// each other.
//
// A session is stored as a Record: the game and its options, the seats, and
// the list of actions played (moves, formations, huffs). The state of the
// game is rebuilt by replaying the actions, so a restart resumes every game
// exactly where it was.
//
// Errors returned to callers are *Error values of a closed set of kinds
// (ErrNoGame, ErrNotYourTurn, ErrIllegalMove, ...), which adapters turn into
// friendly text in one place.
package sessions
