package web

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/boardgamebot/bot/sessions"
)

// Hub keeps the pages watching each game and pushes every change of the
// game to them, as soon as the sessions service commits it in this
// process (Changed, given to sessions.Config.Changed) or, with a store
// shared by several processes, at most Poll later (the service's
// revision check, sessions.SharedStore.Changed, through Look). Make one
// with NewHub before the sessions service, and give it to the Server.
type Hub struct {
	// poll is how often a game watched is looked at for changes other
	// processes made; 0: never (one process).
	poll time.Duration
	// max is the most streams at once.
	max int
	// keepAlive is how often an idle stream gets a comment.
	keepAlive time.Duration

	mu     sync.Mutex
	games  map[string]*watched                  // by game reference
	byKey  map[sessions.Key]map[string]*watched // the same, by session key
	count  int                                  // streams
	closed bool
	src    source // set by the Server
	wg     sync.WaitGroup
}

// source is what the hub asks the server: the game of a page as it stands
// now, and a game's state for one viewer, encoded as an event.
type source interface {
	current(ctx context.Context, key sessions.Key, created time.Time) (*sessions.Snapshot, error)
	event(snap *sessions.Snapshot, v viewer) []byte
}

// errGone: the game is no longer there (a challenge declined, cancelled
// or lapsed; a record gone).
var errGone = errors.New("web: the game is gone")

// HubConfig sets up a Hub.
type HubConfig struct {
	// Poll is how often each game watched is looked at for changes made
	// by other processes (etcd): 0 for one process alone.
	Poll time.Duration
	// MaxStreams is the most pages watching at once, over all games
	// (0: 20,000); more are refused until some leave.
	MaxStreams int
	// KeepAlive is how often a stream with nothing to say gets a comment,
	// which also finds the pages that went away (0: 20 seconds).
	KeepAlive time.Duration
}

// NewHub returns a Hub.
func NewHub(c HubConfig) *Hub {
	if c.MaxStreams <= 0 {
		c.MaxStreams = 20000
	}
	if c.KeepAlive <= 0 {
		c.KeepAlive = 20 * time.Second
	}
	return &Hub{poll: c.Poll, max: c.MaxStreams, keepAlive: c.KeepAlive, games: map[string]*watched{},
		byKey: map[sessions.Key]map[string]*watched{}}
}

// watched is one game with pages watching it.
type watched struct {
	ref     string
	key     sessions.Key
	created time.Time
	subs    map[*sub]struct{}
	// snap is the game as last known (nil: gone), seq counts the
	// changes taken, over says the game ended or is gone: its last
	// state was pushed, or will be.
	snap *sessions.Snapshot
	seq  int
	over bool
	wake chan struct{}
}

// sub is one page's stream.
type sub struct {
	s    stream
	v    viewer
	sent int // the seq last sent, -1 none
}

// writeWithin is how long one write to a page may take; a page slower
// than that is cut off (it connects again and gets the whole state).
const writeWithin = 5 * time.Second

// errFull: the hub holds MaxStreams streams already.
var errFull = errors.New("web: too many pages watching")

// Changed takes a change of a session from the sessions service
// (sessions.Config.Changed): the pages watching that game get it. It
// never blocks.
func (h *Hub) Changed(key sessions.Key, s *sessions.Snapshot) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, w := range h.byKey[key] {
		if w.over {
			continue
		}
		if s == nil {
			// The session is gone without a game: it was the one
			// watched (a key holds one session at a time).
			w.take(nil)
			continue
		}
		if s.Record.Created.Equal(w.created) {
			w.take(s)
		}
	}
}

// take makes s the game's state when it is newer (h.mu held) and wakes
// its pusher.
func (w *watched) take(s *sessions.Snapshot) {
	switch {
	case s == nil:
		w.snap, w.over = nil, true
	case w.snap != nil && s.Record.Version <= w.snap.Record.Version && (s.Record.Result == nil || w.snap.Record.Result != nil):
		return // not newer
	default:
		w.snap = s
		w.over = s.Record.Result != nil
	}
	w.seq++
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// watch adds a page's stream to the game of ref (key, created), as it
// stands in snap (nil: gone), and sends it the game's state at once.
func (h *Hub) watch(ref string, key sessions.Key, created time.Time, snap *sessions.Snapshot, s stream, v viewer) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || h.src == nil {
		return errors.New("web: the hub is closed")
	}
	if h.count >= h.max {
		return errFull
	}
	w := h.games[ref]
	if w == nil {
		w = &watched{ref: ref, key: key, created: created, subs: map[*sub]struct{}{}, wake: make(chan struct{}, 1), seq: 1, snap: snap,
			over: snap == nil || snap.Record.Result != nil}
		h.games[ref] = w
		if h.byKey[key] == nil {
			h.byKey[key] = map[string]*watched{}
		}
		h.byKey[key][ref] = w
		h.wg.Add(1)
		go h.run(w)
	} else if snap != nil && !w.over {
		w.take(snap)
	}
	w.subs[&sub{s: s, v: v, sent: -1}] = struct{}{}
	h.count++
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return nil
}

// run pushes the changes of one game to its pages until none is left.
func (h *Hub) run(w *watched) {
	defer h.wg.Done()
	alive := time.NewTicker(h.keepAlive)
	defer alive.Stop()
	var poll <-chan time.Time
	if h.poll > 0 {
		t := time.NewTicker(h.poll)
		defer t.Stop()
		poll = t.C
	}
	for {
		ping := false
		select {
		case <-w.wake:
		case <-alive.C:
			ping = true
		case <-poll:
			h.refresh(w)
		}
		if !h.push(w, ping) {
			return
		}
	}
}

// refresh looks at the game as the store has it now (changes made by
// other processes) and takes what changed.
func (h *Hub) refresh(w *watched) {
	h.mu.Lock()
	src, over, key, created := h.src, w.over, w.key, w.created
	h.mu.Unlock()
	if over || src == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), writeWithin)
	defer cancel()
	snap, err := src.current(ctx, key, created)
	if err != nil && !errors.Is(err, errGone) {
		return // the store failed: try again at the next poll
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !w.over {
		w.take(snap)
	}
}

// push sends the game's state to the pages that do not have it yet (a
// keep-alive comment to the others when ping), ends the streams of a game
// that is over, and reports whether pages are left to serve.
func (h *Hub) push(w *watched, ping bool) bool {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return false
	}
	seq, snap, over, src := w.seq, w.snap, w.over, h.src
	var todo, idle []*sub
	for s := range w.subs {
		if s.sent != seq {
			todo = append(todo, s)
		} else if ping {
			idle = append(idle, s)
		}
	}
	h.mu.Unlock()
	events := map[string][]byte{}
	for _, s := range todo {
		k := s.v.key()
		if events[k] == nil {
			events[k] = src.event(snap, s.v)
			if over {
				events[k] = append(events[k], "event: end\ndata: {}\n\n"...)
			}
		}
	}
	deadline := time.Now().Add(writeWithin)
	failed := make([]bool, len(todo)+len(idle))
	parallel(len(todo)+len(idle), func(i int) {
		if i < len(todo) {
			failed[i] = todo[i].s.write(events[todo[i].v.key()], deadline) != nil
			return
		}
		failed[i] = idle[i-len(todo)].s.write([]byte(": ping\n\n"), deadline) != nil
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, s := range append(todo, idle...) {
		switch {
		case failed[i] || over:
			// A page gone, or too slow (it connects again), or the
			// game's last state sent.
			s.s.close()
			if _, ok := w.subs[s]; ok {
				delete(w.subs, s)
				h.count--
			}
		case i < len(todo):
			s.sent = seq
		}
	}
	if len(w.subs) == 0 && w.seq == seq {
		delete(h.games, w.ref)
		delete(h.byKey[w.key], w.ref)
		if len(h.byKey[w.key]) == 0 {
			delete(h.byKey, w.key)
		}
		return false
	}
	return true
}

// parallel runs f(0..n-1) on a few goroutines: one slow page does not
// hold up the others.
func parallel(n int, f func(i int)) {
	const workers = 16
	if n <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// full reports whether the hub holds MaxStreams streams.
func (h *Hub) full() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.count >= h.max
}

// Streams returns how many pages watch games now.
func (h *Hub) Streams() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.count
}

// close ends every stream and waits for the pushers.
func (h *Hub) close() {
	h.mu.Lock()
	h.closed = true
	for _, w := range h.games {
		for s := range w.subs {
			s.s.close()
		}
		w.subs = map[*sub]struct{}{}
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
	h.count = 0
	h.mu.Unlock()
	h.wg.Wait()
}
