package sessions

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"sync"
)

// Store keeps sessions and finished games. Package storage implements it on
// bbolt; NewMemoryStore is an in-memory one for tests.
type Store interface {
	// Load returns the live session of key, or an error wrapping ErrNotFound.
	Load(ctx context.Context, key Key) (*Record, error)
	// Commit applies c in one transaction: all of it or nothing. When
	// c.Finished is set, the store gives it an ID (Record.ID) on success.
	Commit(ctx context.Context, c *Change) error
	// Live returns every live session.
	Live(ctx context.Context) ([]*Record, error)
	// Finished returns the finished game with the given id, or an error
	// wrapping ErrNotFound.
	Finished(ctx context.Context, id string) (*Record, error)
	// History returns the finished games of a user (q.User) or a channel
	// (q.Key), newest first, at most q.Limit.
	History(ctx context.Context, q HistoryQuery) ([]*Record, error)
}

// Change is one state change of a session, committed in one transaction.
type Change struct {
	// Key is the session's key.
	Key Key
	// Live is the session's new record; nil removes the live session.
	Live *Record
	// Finished, when set, is a finished game to add to the history.
	Finished *Record
}

// HistoryQuery selects finished games: those of one user on a platform,
// or those of one session key. Game, when set, keeps only that game id.
type HistoryQuery struct {
	Platform string
	User     string // a user id; empty: query by Key
	Key      Key
	Game     string
	Limit    int
}

// Notifier tells players about things that happen outside their own
// requests: whose turn it is, the end of a game. Each adapter implements it.
// Notify must not block for long; it is called after the change committed.
type Notifier interface {
	Notify(ctx context.Context, n Notice)
}

// NoticeKind says what a Notice is about.
type NoticeKind int

// The kinds of notices.
const (
	NoticeYourTurn NoticeKind = iota + 1 // To is to move
	NoticeGameOver                       // the game has ended; To took part
)

// Notice is one message for one user.
type Notice struct {
	Kind    NoticeKind
	Key     Key
	To      User
	Session *Snapshot
}

// MemoryStore is a Store in memory, for tests: records are copied through
// JSON as a real store would.
type MemoryStore struct {
	mu       sync.Mutex
	live     map[Key][]byte
	finished map[string][]byte
	order    []string
	next     int
	// Fail, when set, makes Commit fail with its result (to test what
	// happens when a store fails).
	Fail func(c *Change) error
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{live: map[Key][]byte{}, finished: map[string][]byte{}}
}

// Load implements Store.
func (m *MemoryStore) Load(ctx context.Context, key Key) (*Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.live[key]
	if !ok {
		return nil, fmt.Errorf("session %s: %w", key, ErrNotFound)
	}
	return decodeMem(b)
}

// Commit implements Store.
func (m *MemoryStore) Commit(ctx context.Context, c *Change) error {
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
	if c.Live != nil {
		m.live[c.Key] = live
	} else {
		delete(m.live, c.Key)
	}
	if c.Finished != nil {
		m.next++
		m.finished[id] = fin
		m.order = append(m.order, id)
		c.Finished.ID = id
	}
	return nil
}

// Live implements Store.
func (m *MemoryStore) Live(ctx context.Context) ([]*Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*Record
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

// Finished implements Store.
func (m *MemoryStore) Finished(ctx context.Context, id string) (*Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.finished[id]
	if !ok {
		return nil, fmt.Errorf("game %q: %w", id, ErrNotFound)
	}
	return decodeMem(b)
}

// History implements Store.
func (m *MemoryStore) History(ctx context.Context, q HistoryQuery) ([]*Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*Record
	for i := len(m.order) - 1; i >= 0 && (q.Limit <= 0 || len(out) < q.Limit); i-- {
		r, err := decodeMem(m.finished[m.order[i]])
		if err != nil {
			return nil, err
		}
		if q.Game != "" && r.Game != q.Game {
			continue
		}
		if q.User != "" {
			if r.Key.Platform != q.Platform || len(r.SeatsOf(User{ID: q.User})) == 0 {
				continue
			}
		} else if r.Key != q.Key {
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

func decodeMem(b []byte) (*Record, error) {
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	return &r, nil
}
