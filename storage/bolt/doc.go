// Package storage keeps the bot's data in one bbolt file: the live
// sessions, the finished games with their full records, and indexes of the
// finished games by channel and by user (and of the live sessions by user).
// Store implements sessions.Store.
//
// Ratings: each player's standing per game and period (all time, or a
// month) is a record, and the ladder of each game and period is an index
// ordered by rating (key: platform, game, period, inverted rating, user),
// with the number of players at each rating beside it, so that /top reads
// ten keys and a player's place adds up one count per distinct rating
// above it (BenchmarkTop: about 0.1 ms with 100,000 players). A finished
// game's rating changes are written in the transaction that stores it.
// The ids of applied requests are kept (with an index by time, for
// Forget). Each user's preferences are a small record too (SetNotify,
// NotifyPrefs: whether they want turn pings by private message). Backup and BackupFile copy the whole file in one read
// transaction (bbolt Tx.WriteTo) while commits go on.
//
// Records are JSON with a schema version ({"v":1,...}) and are decoded inside
// their transaction. A live session is stored as its head (the record
// without its actions, with its newest actions after it) and its older
// actions in chunks of 32 (movelog.go), so that a move rewrites one small
// value whatever the length of the game; live sessions are indexed by when
// their clock is due, and start-up reads that index and the heads' flags
// (LiveIndex), decoding no record. A finished game is one record with all
// its actions. Open migrates a database of schema 1 (one record per live
// session) in one transaction.
//
// Tournaments (tournaments.go) are one JSON record each, under ids from
// their bucket's own sequence, written compare-and-set on their Rev;
// bucket tour_active indexes those in sign-up or running and
// tour_by_channel a channel's, so that start-up and a channel's commands
// read no tournament that ended elsewhere; tour_open holds the one active
// tournament of each channel (a second is refused with
// sessions.ErrTournamentOpen). A change's tournament
// (sessions.Change.Tournament) is written in the change's transaction:
// a stale Rev rolls the whole change back.
//
// Every sessions.Change is one transaction; concurrent
// changes of different sessions share one transaction and one fsync (group
// commit, Mode ModeGroup), which costs nothing when only one session writes.
//
// Open never modifies a file that is not a bot database: a damaged file,
// another program's bbolt file, or a file some other process holds open
// (bbolt's lock, with a timeout) are refused with a clear error.
//
// A damaged file never crashes the bot. bbolt trusts its pages (a bad page
// panics; a page past the end of a cut-short file faults in the memory
// map), so Open first reads the file itself: both meta pages, the file's
// size against the pages they claim, the free list, and every page of the
// tree with its elements inside it; then bbolt's Tx.Check. This costs about
// 0.6 s for a 1 GB file. Damage that appears later (a record that does not
// decode, a page bbolt panics on) is caught where every transaction runs
// (recover and debug.SetPanicOnFault): the call fails with
// sessions.ErrDamaged, the damage is logged once per key, and the rest of
// the file works. Live skips damaged sessions and returns the others.
package bolt
