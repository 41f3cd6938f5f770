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
// shared by several processes, when the store reports it (Heads, fed by
// the store's watch, see Follow) or at most Poll later (stores without a
// watch). Make one with NewHub before the sessions service, and give it
// to the Server.
//
// Each stream has its own writer: a goroutine that runs only while the
// stream has something to write, with its own deadline, and one event
// waiting at most (the newest: a state supersedes the one before), so a
// page that reads slowly gets the latest state when it catches up, or is
// cut off after its deadline, and never holds up another page.
type Hub struct {
	// poll is how often a game watched is looked at for changes other
	// processes made; 0: never (one process, or a store that reports
	// its changes).
	poll time.Duration
	// max is the most streams at once; perAddr the most streams of
	// watchers from one address, perGame of watchers on one game.
	max, perAddr, perGame int
	// keepAlive is how often an idle stream gets a comment.
	keepAlive time.Duration
	// writeWithin is how long one write to a page may take.
	writeWithin time.Duration

	mu      sync.Mutex
	games   map[string]*watched                  // by game reference
	byKey   map[sessions.Key]map[string]*watched // the same, by session key
	count   int                                  // streams
	addrs   map[string]int                       // watchers' streams by address
	refs    map[string]int                       // watchers' streams by game reference
	players map[string]int                       // players' streams by game reference and user
	writing int                                  // streams with a writer running
	closed  bool
	src     source // set by the Server
	wg      sync.WaitGroup
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
	// by other processes, with a shared store that does not report its
	// changes: 0 for one process alone, or when the store's changes are
	// followed (Follow).
	Poll time.Duration
	// MaxStreams is the most pages watching at once, over all games
	// (0: 20,000); more are refused until some leave. The last
	// twentieth is kept for the players' own pages.
	MaxStreams int
	// StreamsPerAddress is the most streams of watchers from one client
	// address (an IPv6 address by its /64) at once (0: 20).
	StreamsPerAddress int
	// StreamsPerGame is the most streams of watchers on one game at once
	// (0: 2,000).
	StreamsPerGame int
	// KeepAlive is how often a stream with nothing to say gets a comment,
	// which also finds the pages that went away (0: 20 seconds).
	KeepAlive time.Duration
	// WriteTimeout is how long one write to a page may take (0: 5
	// seconds); a page slower than that is cut off, and connects again.
	WriteTimeout time.Duration
}

// playerStreams is the most streams one seated player has on one game
// (tabs, devices): they count apart from the caps of watchers.
const playerStreams = 8

// NewHub returns a Hub.
func NewHub(c HubConfig) *Hub {
	if c.MaxStreams <= 0 {
		c.MaxStreams = 20000
	}
	if c.StreamsPerAddress <= 0 {
		c.StreamsPerAddress = 20
	}
	if c.StreamsPerGame <= 0 {
		c.StreamsPerGame = 2000
	}
	if c.KeepAlive <= 0 {
		c.KeepAlive = 20 * time.Second
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = 5 * time.Second
	}
	return &Hub{poll: c.Poll, max: c.MaxStreams, perAddr: c.StreamsPerAddress, perGame: c.StreamsPerGame,
		keepAlive: c.KeepAlive, writeWithin: c.WriteTimeout, games: map[string]*watched{},
		byKey: map[sessions.Key]map[string]*watched{}, addrs: map[string]int{}, refs: map[string]int{}, players: map[string]int{}}
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
	// stale says the store reported a change of the game that this
	// process did not make: the pusher looks it up.
	stale bool
	// quit is closed when the last page left: the pusher ends.
	quit chan struct{}
}

// sub is one page's stream.
type sub struct {
	s stream
	v viewer
	// ref, addr and player are what the stream counts against: its
	// game, its client's address and whether it is a seated player's.
	ref, addr string
	player    bool
	w         *watched // nil until it watches
	sent      int      // the seq last given to the writer, -1 none
	// pending is the event waiting to be written (nil: none), last
	// whether the stream ends after it; writing says the stream's
	// writer runs; gone that the stream was dropped.
	pending []byte
	last    bool
	writing bool
	gone    bool
}

// errFull: the hub holds MaxStreams streams already, or the address or
// the game holds its share.
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
	w.poke()
}

// poke wakes the game's pusher.
func (w *watched) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// admit takes a place for a stream on the game of ref from addr (a
// seated player's own when player): errFull when the hub, the address or
// the game has no room for it. A seated player's streams count apart
// from the watchers' caps (playerStreams each), and watchers leave the
// last twentieth of MaxStreams to players. The place is the stream's
// once given to watch; release gives it back otherwise.
func (h *Hub) admit(ref, addr string, v viewer, player bool) (*sub, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || h.src == nil {
		return nil, errors.New("web: the hub is closed")
	}
	s := &sub{v: v, ref: ref, addr: addr, player: player, sent: -1}
	if player {
		if h.count >= h.max || h.players[s.playerKey()] >= playerStreams {
			return nil, errFull
		}
		h.players[s.playerKey()]++
	} else {
		if h.count >= h.max-h.max/20 || h.addrs[addr] >= h.perAddr || h.refs[ref] >= h.perGame {
			return nil, errFull
		}
		h.addrs[addr]++
		h.refs[ref]++
	}
	h.count++
	return s, nil
}

func (s *sub) playerKey() string { return s.ref + "\x00" + s.v.user.ID }

// release gives back the place of s (h.mu held); once.
func (h *Hub) release(s *sub) {
	if s.gone {
		return
	}
	s.gone = true
	h.count--
	if s.player {
		if h.players[s.playerKey()]--; h.players[s.playerKey()] <= 0 {
			delete(h.players, s.playerKey())
		}
	} else {
		if h.addrs[s.addr]--; h.addrs[s.addr] <= 0 {
			delete(h.addrs, s.addr)
		}
		if h.refs[s.ref]--; h.refs[s.ref] <= 0 {
			delete(h.refs, s.ref)
		}
	}
}

// unadmit gives back a place admit gave that watch did not take.
func (h *Hub) unadmit(s *sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.release(s)
}

// watch adds a page's stream st, admitted as s, to the game of s.ref
// (key, created), as it stands in snap (nil: gone), and sends it the
// game's state at once.
func (h *Hub) watch(s *sub, key sessions.Key, created time.Time, snap *sessions.Snapshot, st stream) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || s.gone {
		h.release(s)
		return errors.New("web: the hub is closed")
	}
	w := h.games[s.ref]
	if w == nil {
		w = &watched{ref: s.ref, key: key, created: created, subs: map[*sub]struct{}{}, wake: make(chan struct{}, 1),
			quit: make(chan struct{}), seq: 1, snap: snap, over: snap == nil || snap.Record.Result != nil}
		h.games[s.ref] = w
		if h.byKey[key] == nil {
			h.byKey[key] = map[string]*watched{}
		}
		h.byKey[key][s.ref] = w
		h.wg.Add(1)
		go h.run(w)
	} else if snap != nil && !w.over {
		w.take(snap)
	}
	s.s, s.w = st, w
	w.subs[s] = struct{}{}
	w.poke()
	return nil
}

// run gives the changes of one game to its pages' writers until no page
// is left.
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
		case <-w.quit:
			return
		case <-w.wake:
			h.mu.Lock()
			stale := w.stale
			w.stale = false
			h.mu.Unlock()
			if stale {
				h.refresh(w)
			}
		case <-alive.C:
			ping = true
		case <-poll:
			h.refresh(w)
		}
		h.push(w, ping)
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
	ctx, cancel := context.WithTimeout(context.Background(), h.writeWithin)
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

// ping is the comment an idle stream gets now and then.
var ping = []byte(": ping\n\n")

// push gives the game's state to the writers of the pages that do not
// have it yet (the last event of the streams of a game that is over),
// and a keep-alive comment to the idle others when ping. It never waits
// for a page.
func (h *Hub) push(w *watched, keepAlive bool) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	seq, snap, over, src := w.seq, w.snap, w.over, h.src
	var todo []*sub
	for s := range w.subs {
		if s.sent != seq {
			todo = append(todo, s)
		} else if keepAlive && !s.writing {
			h.give(s, ping, false)
		}
	}
	h.mu.Unlock()
	if len(todo) == 0 {
		return
	}
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
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range todo {
		if s.gone || s.sent >= seq {
			continue
		}
		s.sent = seq
		h.give(s, events[s.v.key()], over)
	}
}

// give makes b the event s writes next, in place of one not written yet
// (h.mu held), and starts the stream's writer when it is not running.
func (h *Hub) give(s *sub, b []byte, last bool) {
	if s.gone || s.last {
		return
	}
	s.pending, s.last = b, last
	if !s.writing {
		s.writing = true
		h.writing++
		h.wg.Add(1)
		go h.write(s)
	}
}

// write is a stream's writer: it writes the stream's newest event until
// none is left, each write within its own deadline; a write that fails
// or is too slow (the page connects again and gets the whole state), or
// the last event of a game that is over, ends the stream.
func (h *Hub) write(s *sub) {
	defer h.wg.Done()
	for {
		h.mu.Lock()
		b, last := s.pending, s.last
		if b == nil || s.gone {
			s.writing = false
			h.writing--
			h.mu.Unlock()
			return
		}
		s.pending = nil
		h.mu.Unlock()
		if err := s.s.write(b, time.Now().Add(h.writeWithin)); err != nil || last {
			h.mu.Lock()
			s.writing = false
			h.writing--
			h.drop(s)
			h.mu.Unlock()
			return
		}
	}
}

// drop ends the stream s and removes it from its game (h.mu held); the
// game is no longer watched when it was its last.
func (h *Hub) drop(s *sub) {
	s.s.close()
	if s.gone {
		return
	}
	h.release(s)
	w := s.w
	delete(w.subs, s)
	if len(w.subs) == 0 && h.games[w.ref] == w {
		delete(h.games, w.ref)
		delete(h.byKey[w.key], w.ref)
		if len(h.byKey[w.key]) == 0 {
			delete(h.byKey, w.key)
		}
		close(w.quit)
	}
}

// Streams returns how many pages watch games now.
func (h *Hub) Streams() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.count
}

// close ends every stream and waits for the pushers and writers.
func (h *Hub) close() {
	h.mu.Lock()
	h.closed = true
	for _, w := range h.games {
		for s := range w.subs {
			h.drop(s)
		}
	}
	h.mu.Unlock()
	h.wg.Wait()
}

// Follow follows the changes of the games' heads that the store reports
// (one watch of the store for the process), until ctx is done: a change
// another process made to a game watched here is looked up and pushed to
// its pages. Run it in its own goroutine, with Poll 0.
func (h *Hub) Follow(ctx context.Context, heads sessions.HeadWatcher) error {
	return heads.WatchHeads(ctx, h.headsChanged, h.headsLost)
}

// headsChanged marks the watched games whose head changed beyond what
// this process knows as stale, and wakes their pushers.
func (h *Hub) headsChanged(cs []sessions.HeadChange) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range cs {
		for _, w := range h.byKey[c.Key] {
			if w.over {
				continue
			}
			if !c.Gone && c.Created.Equal(w.created) && w.snap != nil && c.Version <= w.snap.Record.Version {
				continue // known already (this process made it)
			}
			w.stale = true
			w.poke()
		}
	}
}

// headsLost marks every watched game stale: the store lost track of
// the changes for a while.
func (h *Hub) headsLost() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, w := range h.games {
		if !w.over {
			w.stale = true
			w.poke()
		}
	}
}
