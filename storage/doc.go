// Package storage keeps the bot's data in one bbolt file: the live
// sessions, the finished games with their full records, and indexes of the
// finished games by channel and by user (and of the live sessions by user).
// Store implements sessions.Store.
//
// Records are JSON with a schema version ({"v":1,...}) and are decoded inside
// their transaction. Every sessions.Change is one transaction; concurrent
// changes of different sessions share one transaction and one fsync (group
// commit, Mode ModeGroup), which costs nothing when only one session writes.
//
// Open never modifies a file that is not a bot database: a damaged file,
// another program's bbolt file, or a file some other process holds open
// (bbolt's lock, with a timeout) are refused with a clear error.
package storage
