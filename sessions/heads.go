package sessions

import (
	"context"
	"time"
)

// HeadChange is a change of a live session's head (its record without
// its actions), as a HeadWatcher reports it.
type HeadChange struct {
	Key Key
	// Created and Version are the record's as written; Gone says the
	// head was removed (the game ended or the session went away), and
	// they are zero then.
	Created time.Time
	Version int
	Gone    bool
}

// HeadWatcher is a SharedStore that reports the changes of the live
// sessions' heads as they are committed, by any process: those who
// follow the games (the web board's pages) learn of a change without
// reading the store for every game they follow.
type HeadWatcher interface {
	// WatchHeads calls changed with the heads' changes, in the order
	// they were committed, from its call until ctx is done (it returns
	// ctx's error then). After a disconnection it resumes from the last
	// change it reported, without a gap; when the changes it missed are
	// no longer kept (etcd compacted them), it calls lost, and the
	// caller looks again at what it follows.
	WatchHeads(ctx context.Context, changed func([]HeadChange), lost func()) error
}
