// Package storage holds the stores behind sessions.Store, one package each,
// and the form they share:
//
//   - [github.com/boardgamebot/bot/storage/bolt]: one bbolt file, the
//     embedded default (go run ./cmd/bot needs nothing else);
//   - [github.com/boardgamebot/bot/storage/etcdstore]: an etcd cluster that
//     many processes share;
//   - [github.com/boardgamebot/bot/storage/dump]: the items every store
//     gives and takes, to move the data from one store to another (bot
//     migrate) and to check a copy.
//
// Each store passes the same contract tests (sessionstest) as the
// in-memory store of the tests.
package storage
