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
// the list of actions played (moves, formations, huffs, retirements). The
// state of the game is rebuilt by replaying the actions, so a restart
// resumes every game exactly where it was.
//
// Leaving a game of more than two: when the game's state is a
// rules.Retirer (four-player Halma), /resign, or abandoning by the clock,
// takes the player's seat out of the game (ActRetire) and the others play
// on; draws then need the players still in the game, and the last one left
// wins. Without a Retirer, or when only the computer would play on, the
// game ends with no winner.
//
// Clocks: a game with a time per move (PlayOptions.Time, or the platform's
// default, Config.DefaultTime) stores the deadline of the player to move
// in its Record, not in a timer. Tick (called by Run every few seconds,
// with the injected Config.Now) looks at an index in memory of what is due:
// it sends a reminder (NoticeReminder) with a tenth of the time left, plays
// a move for a player out of time (the computer at Config.AutoLevel;
// NoticeMoved with Auto), ends the game after AutoMovesToAbandon such moves
// in a row (abandoned: a loss; with more players and a rules.Retirer, the
// player leaves and the others play on), and removes challenges nobody answered
// (Config.ChallengeTTL, NoticeExpired). After a restart, Resume rebuilds
// the index from the stored deadlines.
//
// The computer opponent (ChallengeSpec.Computer, /play <game> bot) takes
// the other seats. Its search runs in the background, off the session's
// lock, with a context that a change of the session cancels; its move is
// then applied as a normal change, only if the session did not change
// meanwhile, and announced with NoticeMoved. Settle waits for it. The
// searches take turns between the people playing the computer: each runs
// with ai.WithOwner of that person (of the chat, for the clock's moves).
//
// Caps (caps.go): Config.Caps bounds the open challenges, the games against
// the computer and the open tournaments of one user; past one, the command
// is refused with ErrCapped and nothing is stored. The counts are read from
// the store (Store.LiveOf, Store.ActiveTournaments) under the user's lock.
//
// Ratings (seed 004): when a two-player game between two people ends, the
// Change that stores it carries a RateRequest, and the Store applies it
// (ApplyRating: Elo, K = 30, all-time and monthly) in the same transaction.
//
// A Request.ID is stored with the change it made (in the same transaction),
// for RequestIDsKept: a platform's second delivery of the same update gets
// ErrDuplicate and changes nothing.
//
// Tournaments (tourplay.go, tourround.go; pairing and standings in package
// tournament): a Tournament is stored whole, compare-and-set on its Rev, and
// changed under a lock per tournament id taken after a session's lock, never
// before one. Start stores round 1, then opens each game's place through
// Config.Places and commits the game there, already started, with its key
// written in the tournament in the same transaction. A tournament game's end
// writes its result in the tournament in the transaction that stores the
// finished game (a conflict with another process loads the tournament again,
// up to five times, while the session is still the one the end was judged
// on); after it, outside the session's lock, a complete round is followed by
// the next one (NoticeTournament) or by the end. Resume opens the games a
// restart left unopened and pairs a round left unpaired. The store keeps a
// channel to one active tournament, so that two processes cannot open two.
// A game's place refused for want of a right waits (TourGame.Wait): the
// organiser and its players are told once (TourPlaceMissing), Tick tries
// again, and the place is posted when it opens (TourPlaceOpened). The end
// of a tournament game is followed by NoticePlaceDone, for the platform to
// close its place; TourPlaceEnded names such a place afterwards. Standings
// count the complete rounds only (TourEvent.Counted).
//
// Reviews: [Service.Review] returns a finished game's review (the engine's
// verdict on every move, rules/ai's Review) stored with the game, or queues
// its computing in the background (one review queued per user; its
// searches are the asker's among the computer's); [Service.StoredReview]
// reads one without computing. A store keeps them through the optional
// [ReviewStore]; a shared one lets one process compute each
// ([ReviewClaimer]).
//
// Errors returned to callers are *Error values of a closed set of kinds
// (ErrNoGame, ErrNotYourTurn, ErrIllegalMove, ...), which adapters turn into
// friendly text in one place.
package sessions
