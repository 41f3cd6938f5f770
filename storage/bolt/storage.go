package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Errors of Open and of a closed Store.
var (
	// ErrNotBotDB: the file is not a bbolt database, is damaged, or is a
	// bbolt database of another program. Open never modifies such a file.
	ErrNotBotDB = errors.New("storage: not a bot database")
	// ErrLocked: another process has the database open.
	ErrLocked = errors.New("storage: database in use")
	// ErrClosed: the Store was closed.
	ErrClosed = errors.New("storage: closed")
)

// App is the name written in the meta bucket of every bot database.
const App = "boardgamebot"

// SchemaVersion is the version of the database layout.
const SchemaVersion = 2

var (
	bMeta      = []byte("meta")
	bLive      = []byte("live")         // session key -> live session head and newest actions (movelog.go)
	bGames     = []byte("games")        // game id (8 bytes) -> finished game record
	bByUser    = []byte("by_user")      // platform 0 user 0 game id -> nothing
	bByChannel = []byte("by_channel")   // platform 0 channel 0 thread 0 game id -> nothing
	bLiveUser  = []byte("live_by_user") // platform 0 user 0 session key -> nothing
	bSeen      = []byte("seen")         // platform 0 request id -> when (unix nanoseconds)
	bSeenAt    = []byte("seen_at")      // when (8 bytes) platform 0 request id -> nothing
	bRatings   = []byte("ratings")      // platform 0 user 0 game 0 period -> standing
	bLadder    = []byte("ladder")       // platform 0 game 0 period 0 inverted rating (4 bytes) user -> standing
	bCounts    = []byte("ladder_count") // platform 0 game 0 period 0 inverted rating (4 bytes) -> players (8 bytes)
	bNames     = []byte("names")        // platform 0 lower-case name -> user
	bPrefs     = []byte("prefs")        // platform 0 user 0 -> preferences ({"v":1,"notify":true})
	buckets    = [][]byte{bMeta, bLive, bGames, bByUser, bByChannel, bLiveUser, bSeen, bSeenAt, bRatings, bLadder, bCounts, bNames, bPrefs, bRoutes, bMoves, bDue, bDueOf, bTours, bTourActive, bTourByChan, bTourOpen,
		bRatedLog, bMember, bCLadder, bCCounts, bReviews}
)

// Mode is how Commit groups transactions.
type Mode int

// The commit modes. ModeGroup is the default and the fastest at every
// concurrency (see BenchmarkMove in package sessions).
const (
	// ModeGroup: one writer goroutine commits every change waiting at that
	// moment in one transaction, with no added delay.
	ModeGroup Mode = iota
	// ModeUpdate: one bbolt Update (one fsync) per change.
	ModeUpdate
	// ModeBatch: bbolt's DB.Batch (waits up to MaxBatchDelay to group).
	// Its transactions run in bbolt's goroutines, out of reach of the
	// guard against damaged pages: for comparisons of speed only.
	ModeBatch
)

// Options tune Open.
type Options struct {
	// Timeout is how long Open waits for another process to release the
	// file; 0 means 1 second.
	Timeout time.Duration
	// Mode is the commit mode (ModeGroup by default).
	Mode Mode
	// MaxBatch caps the changes of one group commit; 0 means 256.
	MaxBatch int
	// NoSync skips fsync (tests of speed only: a crash may lose data).
	NoSync bool
	// Log receives the damage found in the file, once per record; nil
	// discards it.
	Log *slog.Logger
	// ReadOnly opens an existing database without writing to it (bbolt's
	// shared lock; bot migrate reads its source so): nothing is created or
	// upgraded, a database of an older schema (or without the rating
	// history) is refused, and every change fails.
	ReadOnly bool
	// Community names the community of a finished game of an older bot,
	// whose record does not say where it was played (Record.Community),
	// when a database written before the rating history and community
	// ladders is opened and they are built from its finished games; nil:
	// such games count for the platforms' ladders only.
	Community func(sessions.Key) string
}

// Store is the bbolt store of sessions and finished games. It implements
// sessions.Store.
type Store struct {
	db       *bbolt.DB
	mode     Mode
	maxBatch int
	commits  chan *commitReq
	quit     chan struct{}
	wg       sync.WaitGroup
	once     sync.Once
	log      *slog.Logger
	legacy   func(sessions.Key) string // Options.Community
	mu       sync.Mutex
	logged   map[string]bool // what was found damaged (logged once)
}

type commitReq struct {
	c       *sessions.Change
	id      uint64                  // the finished game's id, assigned in the transaction
	ratings []sessions.RatingChange // the rating changes, computed in the transaction
	tour    *sessions.Tournament    // the tournament as written in the transaction
	done    chan error
}

// Open opens (or creates) the database at path, creating its directory.
// It never modifies a file it refuses: a file that is not a bot database
// gives an error wrapping ErrNotBotDB, and one that is damaged (cut short,
// bad pages: see vet) wraps sessions.ErrDamaged too; a file another
// process holds gives ErrLocked.
func Open(path string, o Options) (*Store, error) {
	if o.Timeout == 0 {
		o.Timeout = time.Second
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 256
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.ReadOnly {
		return openReadOnly(path, o)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("storage: %w", err)
		}
	}
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		if err := vet(path, o.Timeout); err != nil {
			return nil, err
		}
	}
	var db *bbolt.DB
	err := guard(func() (err error) {
		db, err = bbolt.Open(path, 0o600, &bbolt.Options{Timeout: o.Timeout, NoSync: o.NoSync})
		return err
	})
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return nil, fmt.Errorf("%w: %s is open in another process (is the bot already running?)", ErrLocked, path)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrChecksum), errors.Is(err, sessions.ErrDamaged):
		return nil, &refusal{path, fmt.Sprintf("is not a bbolt database or is damaged (%v)", err), errors.Is(err, sessions.ErrDamaged)}
	case err != nil:
		return nil, fmt.Errorf("storage: opening %s: %w", path, err)
	}
	s := &Store{db: db, mode: o.Mode, maxBatch: o.MaxBatch, commits: make(chan *commitReq), quit: make(chan struct{}),
		log: o.Log, legacy: o.Community, logged: map[string]bool{}}
	if err := s.createBuckets(); err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: creating buckets in %s: %w", path, err)
	}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: migrating %s: %w", path, err)
	}
	if s.mode == ModeBatch {
		db.MaxBatchSize = o.MaxBatch
	}
	if s.mode == ModeGroup {
		s.wg.Add(1)
		go s.loop()
	}
	return s, nil
}

// createBuckets creates the buckets a new database (or one of an older
// bot) lacks; it writes nothing when they are all there.
func (s *Store) createBuckets() error {
	missing := false
	if err := s.view("buckets", func(tx *bbolt.Tx) error {
		for _, b := range buckets {
			missing = missing || tx.Bucket(b) == nil
		}
		return nil
	}); err != nil || !missing {
		return err
	}
	return s.update("buckets", func(tx *bbolt.Tx) error {
		fill := tx.Bucket(bTourOpen) == nil
		fillRated := tx.Bucket(bRatedLog) == nil && tx.Bucket(bGames) != nil
		for _, b := range buckets {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		if fill {
			if err := fillTourOpen(tx); err != nil {
				return err
			}
		}
		if fillRated {
			if err := s.fillRatingLog(tx); err != nil {
				return err
			}
		}
		m := tx.Bucket(bMeta)
		if m.Get([]byte("app")) == nil {
			if err := m.Put([]byte("app"), []byte(App)); err != nil {
				return err
			}
			return m.Put([]byte("schema"), []byte(strconv.Itoa(SchemaVersion)))
		}
		return nil
	})
}

// Close waits for the commits in progress and closes the database.
func (s *Store) Close() error {
	s.once.Do(func() { close(s.quit) })
	s.wg.Wait()
	return s.db.Close()
}

// Check verifies the consistency of the whole file (every page read from
// the file, then bbolt's Tx.Check): a damaged file gives an error wrapping
// sessions.ErrDamaged. It reads the file itself first: run it when nothing
// commits (bot backup checks its copy).
func (s *Store) Check() error {
	if r := preflight(s.db.Path()); r != nil {
		return s.damaged("the whole file", r)
	}
	return s.damaged("the whole file", check(s.db))
}

// Load implements sessions.Store.
func (s *Store) Load(ctx context.Context, key sessions.Key) (*sessions.Record, error) {
	k, err := keyBytes(key)
	if err != nil {
		return nil, err
	}
	var rec *sessions.Record
	err = s.view("session "+key.String(), func(tx *bbolt.Tx) error {
		v := tx.Bucket(bLive).Get(k)
		if v == nil {
			return fmt.Errorf("storage: session %s: %w", key, sessions.ErrNotFound)
		}
		rec, err = loadLive(tx, k, v)
		if err != nil {
			return fmt.Errorf("storage: session %s: %w", key, err)
		}
		return nil
	})
	return rec, err
}

// Live implements sessions.Store: a record that does not decode is
// skipped (and logged, once) and the others are returned, with an error
// wrapping sessions.ErrDamaged.
func (s *Store) Live(ctx context.Context) ([]*sessions.Record, error) {
	var out []*sessions.Record
	var damaged []error
	err := s.view("live sessions", func(tx *bbolt.Tx) error {
		return tx.Bucket(bLive).ForEach(func(k, v []byte) error {
			rec, err := loadLive(tx, k, v)
			switch {
			case errors.Is(err, sessions.ErrDamaged):
				what := "session " + keyString(k)
				damaged = append(damaged, s.damaged(what, fmt.Errorf("storage: %s: %w", what, err)))
			case err != nil:
				return fmt.Errorf("storage: session %s: %w", keyString(k), err)
			default:
				out = append(out, rec)
			}
			return nil
		})
	})
	if err == nil || errors.Is(err, sessions.ErrDamaged) {
		err = errors.Join(append(damaged, err)...)
	}
	return out, err
}

// LiveIndex implements sessions.Store: it reads the due index and the
// heads' keys and flags, and decodes no record (liveIndex).
func (s *Store) LiveIndex(ctx context.Context) ([]sessions.LiveEntry, error) {
	var out []sessions.LiveEntry
	var damaged []error
	err := s.view("live sessions", func(tx *bbolt.Tx) (err error) {
		out, err = s.liveIndex(tx, &damaged)
		return err
	})
	if err == nil || errors.Is(err, sessions.ErrDamaged) {
		err = errors.Join(append(damaged, err)...)
	}
	return out, err
}

// parseKey is the session key of the key bytes k.
func parseKey(k []byte) (sessions.Key, bool) {
	p := strings.SplitN(string(k), "\x00", 3)
	if len(p) != 3 || p[0] == "" || p[1] == "" || strings.ContainsRune(p[2], 0) {
		return sessions.Key{}, false
	}
	return sessions.Key{Platform: p[0], Channel: p[1], Thread: p[2]}, true
}

// keyString is the session key of the key bytes k, as Key.String writes it.
func keyString(k []byte) string {
	p := strings.SplitN(string(k), "\x00", 3)
	if len(p) != 3 {
		return strconv.Quote(string(k))
	}
	return sessions.Key{Platform: p[0], Channel: p[1], Thread: p[2]}.String()
}

// Finished implements sessions.Store.
func (s *Store) Finished(ctx context.Context, id string) (*sessions.Record, error) {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n == 0 {
		return nil, fmt.Errorf("storage: game %q: %w", id, sessions.ErrNotFound)
	}
	var rec *sessions.Record
	err = s.view("game "+id, func(tx *bbolt.Tx) error {
		rec, err = getGame(tx, u64(n))
		if err != nil {
			return fmt.Errorf("storage: game %q: %w", id, err)
		}
		return nil
	})
	return rec, err
}

func getGame(tx *bbolt.Tx, id []byte) (*sessions.Record, error) {
	v := tx.Bucket(bGames).Get(id)
	if v == nil {
		return nil, sessions.ErrNotFound
	}
	return decode(v)
}

// History implements sessions.Store: newest first, through the indexes.
func (s *Store) History(ctx context.Context, q sessions.HistoryQuery) ([]*sessions.Record, error) {
	var prefix []byte
	index := bByChannel
	if q.User != "" {
		index, prefix = bByUser, join(q.Platform, q.User)
	} else {
		k, err := keyBytes(q.Key)
		if err != nil {
			return nil, err
		}
		prefix = append(k, 0)
	}
	var out []*sessions.Record
	err := s.view("history of "+string(bytes.ReplaceAll(prefix, []byte{0}, []byte{'/'})), func(tx *bbolt.Tx) error {
		c := tx.Bucket(index).Cursor()
		k, _ := c.Seek(append(bytes.Clone(prefix), 0xff))
		if k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		var with map[string]bool // the games of q.With, from the index alone
		if q.User != "" && q.With != "" {
			with = map[string]bool{}
			wp := join(q.Platform, q.With)
			wc := tx.Bucket(bByUser).Cursor()
			for k, _ := wc.Seek(wp); k != nil && bytes.HasPrefix(k, wp); k, _ = wc.Next() {
				with[string(k[len(k)-8:])] = true
			}
		}
		for ; k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Prev() {
			if q.Limit > 0 && len(out) >= q.Limit {
				break
			}
			id := k[len(k)-8:]
			if with != nil && !with[string(id)] {
				continue
			}
			rec, err := getGame(tx, id)
			if err != nil {
				return fmt.Errorf("storage: game %d in the index: %w", binary.BigEndian.Uint64(id), err)
			}
			if q.Game == "" || rec.Game == q.Game {
				out = append(out, rec)
			}
		}
		return nil
	})
	return out, err
}

// Commit implements sessions.Store: the change is committed (and synced to
// disk) when Commit returns nil. Once the change is queued, Commit waits
// for its transaction even if ctx is cancelled, so that the caller always
// knows whether it was applied.
func (s *Store) Commit(ctx context.Context, c *sessions.Change) error {
	if _, err := keyBytes(c.Key); err != nil {
		return err
	}
	r := &commitReq{c: c, done: make(chan error, 1)}
	switch s.mode {
	case ModeUpdate:
		return s.commitBatch([]*commitReq{r})
	case ModeBatch:
		err := s.db.Batch(func(tx *bbolt.Tx) error { return apply(tx, r) })
		if err == nil {
			r.finish()
		}
		return err
	}
	select {
	case s.commits <- r:
	case <-ctx.Done():
		return ctx.Err()
	case <-s.quit:
		return ErrClosed
	}
	return <-r.done
}

// loop is the group committer: it takes every change waiting and commits
// them in one transaction, so that concurrent sessions share an fsync.
func (s *Store) loop() {
	defer s.wg.Done()
	for {
		var r *commitReq
		select {
		case r = <-s.commits:
		case <-s.quit:
			return
		}
		batch := []*commitReq{r}
	drain:
		for len(batch) < s.maxBatch {
			select {
			case r := <-s.commits:
				batch = append(batch, r)
			default:
				break drain
			}
		}
		s.commitBatch(batch)
	}
}

// commitBatch commits the batch in one transaction; when that fails, it
// commits each change alone, so that one bad change fails only itself.
func (s *Store) commitBatch(batch []*commitReq) error {
	fn := func(tx *bbolt.Tx) error {
		for _, r := range batch {
			if err := apply(tx, r); err != nil {
				return err
			}
		}
		return nil
	}
	var err error
	if len(batch) == 1 {
		err = s.update("session "+batch[0].c.Key.String(), fn)
	} else {
		err = guard(func() error { return s.db.Update(fn) }) // on failure, each change alone says which
	}
	if err != nil && len(batch) > 1 {
		for _, r := range batch {
			s.commitBatch([]*commitReq{r})
		}
		return nil
	}
	for _, r := range batch {
		if err == nil {
			r.finish()
		}
		r.done <- err
	}
	return err
}

func (r *commitReq) finish() {
	if r.c.Finished != nil {
		r.c.Finished.ID = strconv.FormatUint(r.id, 10)
		if r.c.Rate != nil {
			r.c.Finished.Ratings = r.ratings
		}
	}
	if r.tour != nil {
		*r.c.Tournament = *r.tour
	}
}

// apply writes one change in tx: the live session (and its user index),
// the finished game with its indexes, and the tournament (last: it takes
// the finished game's id; a conflict there rolls the whole change back).
func apply(tx *bbolt.Tx, r *commitReq) error {
	if err := applySession(tx, r); err != nil {
		return err
	}
	if r.c.Tournament != nil {
		return applyTournament(tx, r)
	}
	return nil
}

// applySession writes the change but its tournament.
func applySession(tx *bbolt.Tx, r *commitReq) error {
	c := r.c
	k, err := keyBytes(c.Key)
	if err != nil {
		return err
	}
	if c.Request != "" {
		if err := seeRequest(tx, c.Key.Platform, c.Request, c.At); err != nil {
			return err
		}
	}
	live, liveUser := tx.Bucket(bLive), tx.Bucket(bLiveUser)
	live.FillPercent = 0.9 // heads are rewritten in place and rarely added
	if c.Live != nil {
		// A move writes the head; the index entries of the seats only
		// when a seat is filled (a Put of a key that is there would
		// rewrite its page).
		if err := putLive(tx, k, c.Live); err != nil {
			return err
		}
		for _, u := range c.Live.Seats {
			if u.ID == "" {
				continue
			}
			if uk := append(join(c.Key.Platform, u.ID), k...); liveUser.Get(uk) == nil {
				if err := liveUser.Put(uk, nil); err != nil {
					return err
				}
			}
		}
		if err := putDue(tx, k, c.Live.Due()); err != nil {
			return err
		}
	} else if old := live.Get(k); old != nil {
		if rec, err := decodeHead(old); err == nil {
			for _, u := range rec.Seats {
				if u.ID != "" {
					if err := liveUser.Delete(append(join(c.Key.Platform, u.ID), k...)); err != nil {
						return err
					}
				}
			}
		}
		if err := dropLive(tx, k); err != nil {
			return err
		}
		if err := putDue(tx, k, time.Time{}); err != nil {
			return err
		}
	}
	if c.Finished == nil {
		return nil
	}
	games := tx.Bucket(bGames)
	n, err := games.NextSequence()
	if err != nil {
		return err
	}
	r.id = n
	rec := c.Finished.Clone()
	rec.ID = strconv.FormatUint(n, 10)
	if c.Rate != nil {
		if r.ratings, err = rate(tx, c.Rate); err != nil {
			return err
		}
		rec.Ratings = r.ratings
		if err := putRatedGames(tx, rec); err != nil {
			return err
		}
	}
	if err := putNames(tx, c.Key.Platform, rec.Seats); err != nil {
		return err
	}
	v, err := encode(rec)
	if err != nil {
		return err
	}
	id := u64(n)
	if err := games.Put(id, v); err != nil {
		return err
	}
	if err := tx.Bucket(bByChannel).Put(append(append(k, 0), id...), nil); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, u := range rec.Seats {
		if u.ID != "" && !seen[u.ID] {
			seen[u.ID] = true
			if err := tx.Bucket(bByUser).Put(append(join(c.Key.Platform, u.ID), id...), nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// LiveOf implements sessions.Store: it reads the index of live sessions
// by user, then each one's head (no move log). A head that does not decode
// is skipped (and logged, once) and the others are returned, with an error
// wrapping sessions.ErrDamaged.
func (s *Store) LiveOf(ctx context.Context, platform, userID string) ([]*sessions.Record, error) {
	if userID == "" {
		return nil, nil
	}
	prefix := join(platform, userID)
	var out []*sessions.Record
	var damaged []error
	err := s.view("live sessions of "+platform+" user "+userID, func(tx *bbolt.Tx) error {
		live := tx.Bucket(bLive)
		c := tx.Bucket(bLiveUser).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			if _, ok := parseKey(k[len(prefix):]); !ok {
				return fmt.Errorf("storage: bad index key %q: %w", k, sessions.ErrDamaged)
			}
			v := live.Get(k[len(prefix):])
			if v == nil {
				continue
			}
			rec, err := decodeHead(v)
			if err != nil {
				what := "session " + keyString(k[len(prefix):])
				damaged = append(damaged, s.damaged(what, fmt.Errorf("storage: %s: %w", what, err)))
				continue
			}
			out = append(out, rec)
		}
		return nil
	})
	if err == nil || errors.Is(err, sessions.ErrDamaged) {
		err = errors.Join(append(damaged, err)...)
	}
	return out, err
}

// keyBytes encodes a session key as platform 0 channel 0 thread.
func keyBytes(k sessions.Key) ([]byte, error) {
	if k.Platform == "" || k.Channel == "" || strings.ContainsRune(k.Platform+k.Channel+k.Thread, 0) {
		return nil, fmt.Errorf("storage: bad session key %q", k.String())
	}
	return []byte(k.Platform + "\x00" + k.Channel + "\x00" + k.Thread), nil
}

// join returns a 0 b 0.
func join(a, b string) []byte { return []byte(a + "\x00" + b + "\x00") }

func u64(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

func encode(r *sessions.Record) ([]byte, error) {
	if r.V == 0 {
		c := *r
		c.V = sessions.RecordVersion
		r = &c
	}
	return json.Marshal(r)
}

// decode reads a record; the bytes are bbolt's and valid only in the
// transaction, so decoding happens there.
func decode(v []byte) (*sessions.Record, error) {
	var head struct {
		V int `json:"v"`
	}
	if err := json.Unmarshal(v, &head); err != nil {
		return nil, damage(fmt.Errorf("bad record: %w", err))
	}
	if head.V < sessions.OldestRecordVersion || head.V > sessions.RecordVersion {
		return nil, damage(fmt.Errorf("record version %d, this bot reads %d to %d", head.V, sessions.OldestRecordVersion, sessions.RecordVersion))
	}
	var r sessions.Record
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, damage(fmt.Errorf("bad record: %w", err))
	}
	return &r, nil
}
