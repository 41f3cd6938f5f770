package ai

import (
	"context"
	"slices"
	"sync"
)

// ownerKey is the context key of a search's owner.
type ownerKey struct{}

// WithOwner returns a copy of ctx whose searches the Player schedules as
// owner's: when more searches wait than Config.Searches run, the owners
// take turns, one search each per round (round robin), so that an owner
// with many searches waiting delays another owner's by at most one search
// per owner waiting. The bot's owner is the person playing the computer
// (or the chat, for the clock's moves); searches without an owner share
// the owner "".
func WithOwner(ctx context.Context, owner string) context.Context {
	return context.WithValue(ctx, ownerKey{}, owner)
}

// startKey is the context key of a search's start hook.
type startKey struct{}

// WithStart returns a copy of ctx whose search calls started once it
// starts searching: after its turn among the waiting searches came (it
// has its table), so that the caller can tell the wait from the search.
// A state with one legal move is answered without a search: started is
// not called.
func WithStart(ctx context.Context, started func()) context.Context {
	return context.WithValue(ctx, startKey{}, started)
}

// OwnerOf returns the owner WithOwner put in ctx, "" for none.
func OwnerOf(ctx context.Context) string {
	o, _ := ctx.Value(ownerKey{}).(string)
	return o
}

// turns hands the Player's transposition tables (one per running search)
// to the searches waiting for one, round robin between their owners.
type turns struct {
	mu   sync.Mutex
	free []*table // tables nobody uses (nil: not allocated yet)
	// queues holds each owner's waiting searches, first come first.
	queues map[string][]*waiter
	// ring lists the owners with searches waiting, in the order they are
	// served; next is the index of the one served next. An owner that
	// starts waiting joins at the end of the round (just before next).
	ring    []string
	next    int
	waiting int
}

// waiter is a search waiting for a table.
type waiter struct {
	owner string
	ch    chan grant // buffered: the table is handed without waiting
}

// grant is a table handed to a waiting search, and how many searches
// still waited then.
type grant struct {
	t      *table
	behind int
}

func newTurns(tables int) *turns {
	return &turns{free: make([]*table, tables), queues: map[string][]*waiter{}}
}

// enqueue takes a free table for owner's search when one is free and
// nobody waits (ok), or puts the search in owner's queue: wait for the
// table then.
func (q *turns) enqueue(owner string) (t *table, w *waiter, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.waiting == 0 && len(q.free) > 0 {
		t = q.free[len(q.free)-1]
		q.free = q.free[:len(q.free)-1]
		return t, nil, true
	}
	w = &waiter{owner: owner, ch: make(chan grant, 1)}
	if len(q.queues[owner]) == 0 {
		q.ring = slices.Insert(q.ring, q.next, owner)
		q.next++
		if q.next == len(q.ring) {
			q.next = 0
		}
	}
	q.queues[owner] = append(q.queues[owner], w)
	q.waiting++
	return nil, w, false
}

// wait waits for w's table; when ctx is done first, w leaves its queue.
func (q *turns) wait(ctx context.Context, w *waiter) (grant, error) {
	select {
	case g := <-w.ch:
		return g, nil
	case <-ctx.Done():
	}
	q.mu.Lock()
	ws := q.queues[w.owner]
	i := slices.Index(ws, w)
	if i >= 0 {
		q.drop(w.owner, i)
	}
	q.mu.Unlock()
	if i < 0 {
		// The table came meanwhile: hand it on.
		q.release((<-w.ch).t)
	}
	return grant{}, ctx.Err()
}

// drop takes the search at index i out of owner's queue, and the owner out
// of the ring when it was its last. q.mu is held.
func (q *turns) drop(owner string, i int) {
	ws := slices.Delete(q.queues[owner], i, i+1)
	q.waiting--
	if len(ws) > 0 {
		q.queues[owner] = ws
		return
	}
	delete(q.queues, owner)
	r := slices.Index(q.ring, owner)
	q.ring = slices.Delete(q.ring, r, r+1)
	if r < q.next {
		q.next--
	}
	if q.next >= len(q.ring) {
		q.next = 0
	}
}

// release hands t to the first waiting search of the owner whose turn it
// is, or keeps it free.
func (q *turns) release(t *table) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.waiting == 0 {
		q.free = append(q.free, t)
		return
	}
	owner := q.ring[q.next]
	w := q.queues[owner][0]
	last := len(q.queues[owner]) == 1
	q.drop(owner, 0)
	if !last {
		q.next = (q.next + 1) % len(q.ring)
	}
	w.ch <- grant{t: t, behind: q.waiting}
}

// Running returns how many searches run now (each holds a table).
func (pl *Player) Running() int {
	pl.turns.mu.Lock()
	defer pl.turns.mu.Unlock()
	return pl.cfg.Searches - len(pl.turns.free)
}

// Waiting returns how many searches wait for a table now.
func (pl *Player) Waiting() int {
	pl.turns.mu.Lock()
	defer pl.turns.mu.Unlock()
	return pl.turns.waiting
}
