package sessionstest

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardgamebot/bot/sessions"
)

// MemoryStore is a Store in memory, for tests: records are copied through
// JSON as a real store would.
type MemoryStore struct {
	mu        sync.Mutex
	live      map[sessions.Key][]byte
	finished  map[string][]byte
	order     []string
	next      int
	seen      map[string]time.Time
	standings map[string]sessions.Standing
	// rated holds each player's rating history (platform 0 user), oldest
	// first; members the players of each community ladder (platform 0
	// community 0 game 0 period).
	rated     map[string][]sessions.RatedGame
	members   map[string]map[string]bool
	names     map[string]sessions.User
	tours     map[string][]byte
	tourOrder []string
	reviews   map[string][]byte // by game id; made on first use
	// Fail, when set, makes Commit fail with its result (to test what
	// happens when a store fails).
	Fail func(c *sessions.Change) error
	// Answer, when set, is what Commit returns, given what it did (nil:
	// c was applied): a store whose answer was lost after it applied c
	// (or did not) returns an error wrapping sessions.ErrUnknownOutcome.
	// It is called outside the store's lock.
	Answer func(c *sessions.Change, err error) error
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{live: map[sessions.Key][]byte{}, finished: map[string][]byte{}, seen: map[string]time.Time{},
		standings: map[string]sessions.Standing{}, rated: map[string][]sessions.RatedGame{}, members: map[string]map[string]bool{},
		names: map[string]sessions.User{}, tours: map[string][]byte{}}
}

// Load implements sessions.Store.
func (m *MemoryStore) Load(ctx context.Context, key sessions.Key) (*sessions.Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.live[key]
	if !ok {
		return nil, fmt.Errorf("session %s: %w", key, sessions.ErrNotFound)
	}
	return decodeMem(b)
}

// Commit implements sessions.Store.
func (m *MemoryStore) Commit(ctx context.Context, c *sessions.Change) error {
	err := m.commit(c)
	if m.Answer != nil {
		return m.Answer(c, err)
	}
	return err
}

func (m *MemoryStore) commit(c *sessions.Change) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Fail != nil {
		if err := m.Fail(c); err != nil {
			return err
		}
	}
	var live, fin []byte
	var err error
	if c.Live != nil {
		if live, err = json.Marshal(c.Live); err != nil {
			return err
		}
	}
	id := ""
	if c.Finished != nil {
		id = strconv.Itoa(m.next + 1)
		f := c.Finished.Clone()
		f.ID = id
		if fin, err = json.Marshal(f); err != nil {
			return err
		}
	}
	if c.Request != "" && !m.seen[c.Key.Platform+"\x00"+c.Request].IsZero() {
		return fmt.Errorf("request %s: %w", c.Request, sessions.ErrDuplicate)
	}
	var tour *sessions.Tournament
	if c.Tournament != nil {
		tour = c.Tournament.Clone()
		if f := c.Finished; f != nil && f.Tour != nil && f.Tour.ID == tour.ID &&
			f.Tour.Round >= 1 && f.Tour.Round <= len(tour.Played) && f.Tour.Board < len(tour.Played[f.Tour.Round-1].Games) {
			tour.Played[f.Tour.Round-1].Games[f.Tour.Board].GameID = id
		}
		if err := m.checkTour(tour); err != nil {
			return err
		}
	}
	var changes []sessions.RatingChange
	var rated [2][2]sessions.Standing
	if c.Finished != nil && c.Rate != nil {
		rated, changes = sessions.ApplyRating(c.Rate, m.standingsBefore(c))
		f := c.Finished.Clone()
		f.ID = id
		f.Ratings = changes
		if fin, err = json.Marshal(f); err != nil {
			return err
		}
	}
	if c.Live != nil {
		m.live[c.Key] = live
	} else {
		delete(m.live, c.Key)
	}
	if tour != nil {
		if err := m.putTour(tour); err != nil {
			return err
		}
		*c.Tournament = *tour
	}
	if c.Request != "" {
		m.seen[c.Key.Platform+"\x00"+c.Request] = c.At
	}
	if c.Finished != nil {
		m.next++
		m.finished[id] = fin
		m.order = append(m.order, id)
		c.Finished.ID = id
		for _, u := range c.Finished.Seats {
			if u.ID != "" && !u.Computer {
				m.names[c.Key.Platform+"\x00"+strings.ToLower(strings.TrimPrefix(u.Name, "@"))] = u
			}
		}
		if c.Rate != nil {
			m.putRatings(c, id, rated, changes)
		}
	}
	return nil
}

// standingsBefore are the standings of c's players that c.Rate changes,
// all-time and of the month, as stored (new ones when none is).
func (m *MemoryStore) standingsBefore(c *sessions.Change) [2][2]sessions.Standing {
	var cur [2][2]sessions.Standing
	for seat, u := range c.Rate.Players {
		for p, period := range []string{sessions.AllTime, c.Rate.Month} {
			st, ok := m.standings[standingKey(c.Rate.Platform, u.ID, c.Rate.Game, period)]
			if !ok {
				st = sessions.NewStanding(c.Rate.Platform, u, c.Rate.Game, period)
			}
			cur[seat][p] = st
		}
	}
	return cur
}

// putRatings stores what c, a rated game's end with the id id, did to
// its players' standings (rated), their communities' ladders and their
// rating histories (changes).
func (m *MemoryStore) putRatings(c *sessions.Change, id string, rated [2][2]sessions.Standing, changes []sessions.RatingChange) {
	c.Finished.Ratings = changes
	for seat := range 2 {
		if !c.Rate.Rated && c.Rate.Penalty[seat] == 0 {
			continue
		}
		for p := range 2 {
			st := rated[seat][p]
			m.standings[standingKey(st.Platform, st.User.ID, st.Game, st.Period)] = st
			if c.Rate.Joins() {
				k := memberKey(st.Platform, c.Rate.Community, st.Game, st.Period)
				if m.members[k] == nil {
					m.members[k] = map[string]bool{}
				}
				m.members[k][st.User.ID] = true
			}
		}
	}
	f := c.Finished.Clone()
	f.ID, f.Ratings = id, changes
	for _, g := range sessions.RatedGamesOf(f) {
		k := g.Platform + "\x00" + g.User.ID
		m.rated[k] = append(m.rated[k], g)
	}
}

func standingKey(platform, user, game, period string) string {
	return platform + "\x00" + user + "\x00" + game + "\x00" + period
}

func memberKey(platform, community, game, period string) string {
	return platform + "\x00" + community + "\x00" + game + "\x00" + period
}

// RatingHistory implements sessions.Store.
func (m *MemoryStore) RatingHistory(ctx context.Context, platform, userID, game string) ([]sessions.RatedGame, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []sessions.RatedGame
	for _, g := range m.rated[platform+"\x00"+userID] {
		if game == "" || g.Game == game {
			out = append(out, g)
		}
	}
	sessions.SortRatedGames(out)
	return out, nil
}

// Seen implements sessions.Store.
func (m *MemoryStore) Seen(ctx context.Context, platform, id string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return !m.seen[platform+"\x00"+id].IsZero(), nil
}

// Forget implements sessions.Store.
func (m *MemoryStore) Forget(ctx context.Context, before time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, t := range m.seen {
		if t.Before(before) {
			delete(m.seen, k)
		}
	}
	return nil
}

// Standings implements sessions.Store.
func (m *MemoryStore) Standings(ctx context.Context, platform, userID, game string) ([]sessions.Standing, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []sessions.Standing
	for _, st := range m.standings {
		if st.Platform == platform && st.User.ID == userID && (game == "" || st.Game == game) {
			out = append(out, st)
		}
	}
	slices.SortFunc(out, func(a, b sessions.Standing) int {
		return cmp.Or(cmp.Compare(a.Game, b.Game), cmp.Compare(a.Period, b.Period))
	})
	return out, nil
}

// Top implements sessions.Store.
func (m *MemoryStore) Top(ctx context.Context, q sessions.TopQuery) (sessions.Ladder, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var all []sessions.Standing
	members := m.members[memberKey(q.Platform, q.Community, q.Game, q.Period)]
	for _, st := range m.standings {
		if st.Platform == q.Platform && st.Game == q.Game && st.Period == q.Period && (q.Community == "" || members[st.User.ID]) {
			all = append(all, st)
		}
	}
	slices.SortFunc(all, func(a, b sessions.Standing) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), cmp.Compare(a.User.ID, b.User.ID))
	})
	l := sessions.Ladder{Players: len(all)}
	for i, st := range all {
		if q.Limit <= 0 || i < q.Limit {
			l.Rows = append(l.Rows, st)
		}
		if q.User != "" && st.User.ID == q.User {
			me := st
			l.Me = &me
			l.Place = 1 + slices.IndexFunc(all, func(x sessions.Standing) bool { return x.Rating == st.Rating })
		}
	}
	return l, nil
}

// FindUser implements sessions.Store.
func (m *MemoryStore) FindUser(ctx context.Context, platform, name string) (sessions.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.names[platform+"\x00"+strings.ToLower(strings.TrimPrefix(name, "@"))]
	if !ok {
		return sessions.User{}, fmt.Errorf("user %q: %w", name, sessions.ErrNotFound)
	}
	return u, nil
}

// Live implements sessions.Store.
func (m *MemoryStore) Live(ctx context.Context) ([]*sessions.Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*sessions.Record
	for _, b := range m.live {
		r, err := decodeMem(b)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key.String() < out[j].Key.String() })
	return out, nil
}

// LiveIndex implements sessions.Store.
func (m *MemoryStore) LiveIndex(ctx context.Context) ([]sessions.LiveEntry, error) {
	live, err := m.Live(ctx)
	var out []sessions.LiveEntry
	for _, r := range live {
		out = append(out, r.Entry())
	}
	return out, err
}

// LiveOf implements sessions.Store (reading every live session: a test
// store has few).
func (m *MemoryStore) LiveOf(ctx context.Context, platform, userID string) ([]*sessions.Record, error) {
	if userID == "" {
		return nil, nil
	}
	live, err := m.Live(ctx)
	var out []*sessions.Record
	for _, r := range live {
		if r.Key.Platform == platform && slices.ContainsFunc(r.Seats, func(u sessions.User) bool { return u.ID == userID }) {
			r.Actions = nil
			out = append(out, r)
		}
	}
	return out, err
}

// Finished implements sessions.Store.
func (m *MemoryStore) Finished(ctx context.Context, id string) (*sessions.Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.finished[id]
	if !ok {
		return nil, fmt.Errorf("game %q: %w", id, sessions.ErrNotFound)
	}
	return decodeMem(b)
}

// History implements sessions.Store.
func (m *MemoryStore) History(ctx context.Context, q sessions.HistoryQuery) ([]*sessions.Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*sessions.Record
	for i := len(m.order) - 1; i >= 0 && (q.Limit <= 0 || len(out) < q.Limit); i-- {
		r, err := decodeMem(m.finished[m.order[i]])
		if err != nil {
			return nil, err
		}
		if q.Game != "" && r.Game != q.Game {
			continue
		}
		if q.User != "" {
			if r.Key.Platform != q.Platform || len(r.SeatsOf(sessions.User{ID: q.User})) == 0 ||
				q.With != "" && len(r.SeatsOf(sessions.User{ID: q.With})) == 0 {
				continue
			}
		} else if r.Key != q.Key {
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

func decodeMem(b []byte) (*sessions.Record, error) {
	var r sessions.Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// checkTour fails with ErrConflict when t cannot be written over the
// stored tournament (see sessions.Tournament.Rev), and also with
// ErrTournamentOpen when it would make t active in a channel where
// another tournament is (see sessions.Store.PutTournament).
func (m *MemoryStore) checkTour(t *sessions.Tournament) error {
	var old sessions.Tournament
	if t.ID == "" {
		if t.Rev != 1 {
			return fmt.Errorf("new tournament at rev %d: %w", t.Rev, sessions.ErrConflict)
		}
	} else {
		b, ok := m.tours[t.ID]
		if !ok {
			return fmt.Errorf("tournament %s: %w", t.ID, sessions.ErrNotFound)
		}
		if err := json.Unmarshal(b, &old); err != nil {
			return err
		}
		if old.Rev != t.Rev-1 {
			return fmt.Errorf("tournament %s at rev %d, not %d: %w", t.ID, old.Rev, t.Rev-1, sessions.ErrConflict)
		}
	}
	sameChannel := func(a, b sessions.Key) bool { return a.Platform == b.Platform && a.Channel == b.Channel }
	if !t.Status.Active() || t.ID != "" && old.Status.Active() && sameChannel(old.Key, t.Key) {
		return nil // it does not become active in the channel
	}
	for id, b := range m.tours {
		var o sessions.Tournament
		if err := json.Unmarshal(b, &o); err != nil {
			return err
		}
		if id != t.ID && o.Status.Active() && sameChannel(o.Key, t.Key) {
			return fmt.Errorf("tournament %s is active in %s %s: %w (%w)", id, t.Key.Platform, t.Key.Channel, sessions.ErrTournamentOpen, sessions.ErrConflict)
		}
	}
	return nil
}

// putTour writes t (checked), giving a new one its ID.
func (m *MemoryStore) putTour(t *sessions.Tournament) error {
	if t.ID == "" {
		t.ID = strconv.Itoa(len(m.tourOrder) + 1)
		m.tourOrder = append(m.tourOrder, t.ID)
	}
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	m.tours[t.ID] = b
	return nil
}

// PutTournament implements sessions.Store.
func (m *MemoryStore) PutTournament(ctx context.Context, t *sessions.Tournament) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.checkTour(t); err != nil {
		return err
	}
	c := t.Clone()
	if err := m.putTour(c); err != nil {
		return err
	}
	t.ID = c.ID
	return nil
}

// Tournament implements sessions.Store.
func (m *MemoryStore) Tournament(ctx context.Context, id string) (*sessions.Tournament, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.tours[id]
	if !ok {
		return nil, fmt.Errorf("tournament %s: %w", id, sessions.ErrNotFound)
	}
	var t sessions.Tournament
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

// ActiveTournaments implements sessions.Store.
func (m *MemoryStore) ActiveTournaments(ctx context.Context) ([]*sessions.Tournament, error) {
	return m.tournaments(func(t *sessions.Tournament) bool { return t.Status.Active() }, 0)
}

// TournamentsAt implements sessions.Store.
func (m *MemoryStore) TournamentsAt(ctx context.Context, key sessions.Key, limit int) ([]*sessions.Tournament, error) {
	return m.tournaments(func(t *sessions.Tournament) bool {
		return t.Key.Platform == key.Platform && t.Key.Channel == key.Channel
	}, limit)
}

// tournaments returns the tournaments keep accepts, newest first, at
// most limit (0: all).
func (m *MemoryStore) tournaments(keep func(*sessions.Tournament) bool, limit int) ([]*sessions.Tournament, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*sessions.Tournament
	for i := len(m.tourOrder) - 1; i >= 0 && (limit <= 0 || len(out) < limit); i-- {
		var t sessions.Tournament
		if err := json.Unmarshal(m.tours[m.tourOrder[i]], &t); err != nil {
			return nil, err
		}
		if keep(&t) {
			out = append(out, &t)
		}
	}
	return out, nil
}
