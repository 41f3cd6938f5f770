package storage

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/bbolt"
)

// Item is one record of a store in a form every store writes and reads
// the same, to move the bot's data from one store to another (bot
// migrate): Kind is one of Kinds, ID is unique within its kind and the
// same in every store (its parts joined by zero bytes), Value is the
// record's JSON as this package marshals it, so that equal records are
// equal bytes whatever store they come from.
type Item struct {
	Kind  string
	ID    string
	Value []byte
}

// The kinds of Item.
const (
	// KindCounter: ID "games", the last finished game's id (decimal), or
	// "tournaments", the last tournament's id.
	KindCounter = "counter"
	// KindLive: ID platform 0 channel 0 thread; a live sessions.Record
	// with all its actions.
	KindLive = "live"
	// KindGame: ID the game's id (decimal); its sessions.Record.
	KindGame = "games"
	// KindHistory: ID "user" 0 platform 0 user 0 game id, or "channel" 0
	// platform 0 channel 0 thread 0 game id; no value. The indexes of
	// the finished games.
	KindHistory = "history"
	// KindStanding: ID platform 0 user 0 game 0 period; a sessions.Standing.
	KindStanding = "standings"
	// KindLadder: ID platform 0 game 0 period 0 rating (decimal) 0 user;
	// a sessions.Standing. The ladders' index.
	KindLadder = "ladder"
	// KindName: ID platform 0 lower-case name; a sessions.User.
	KindName = "names"
	// KindPrefs: ID platform 0 user; {"v":1,"notify":true,"lang":"de"}.
	KindPrefs = "prefs"
	// KindRoute: ID platform 0 channel; {"v":1,"key":{...}}.
	KindRoute = "routes"
	// KindTournament: ID the tournament's id (decimal); its
	// sessions.Tournament (TournamentValue). The indexes of the active
	// tournaments, by channel and of a channel's active one are not
	// items: Import builds them again.
	KindTournament = "tournaments"
	// KindRated: ID platform 0 user 0 game 0 ended (unix nanoseconds,
	// decimal) 0 game id; a sessions.RatedGame. The rating history.
	KindRated = "rating_log"
	// KindMember: ID platform 0 user 0 game 0 period 0 community; no
	// value. The community ladders a player is on.
	KindMember = "community_member"
	// KindCommunityLadder: ID platform 0 community 0 game 0 period 0
	// rating (decimal) 0 user; a sessions.Standing. The community
	// ladders' index.
	KindCommunityLadder = "community_ladder"
)

// Kinds are the kinds of Item, in the order Export gives them. Request
// ids are not among them: they only guard against duplicate deliveries
// of the last day, and migrate runs with the bot stopped.
//
// A new kind is a constant here, one more entry in Kinds, an exporter in
// (*Store).exporters and a case in importItem; the same two in package
// etcdstore. bot migrate copies and compares it then.
func Kinds() []string {
	return []string{KindCounter, KindLive, KindGame, KindHistory, KindStanding, KindLadder, KindName, KindPrefs, KindRoute, KindTournament,
		KindRated, KindMember, KindCommunityLadder}
}

// RecordValue is the Value of a live session or finished game: its JSON
// with the current record version when it has none.
func RecordValue(r *sessions.Record) ([]byte, error) {
	if r.V == 0 {
		c := *r
		c.V = sessions.RecordVersion
		r = &c
	}
	return json.Marshal(r)
}

// TournamentValue is the Value of the tournament stored as v under id:
// its JSON as PutTournament writes it. A record that does not decode, or
// that names another id or no channel, is an error wrapping
// sessions.ErrDamaged.
func TournamentValue(v []byte, id string) ([]byte, error) {
	t, _, err := tournamentItem(v, id)
	if err != nil {
		return nil, err
	}
	return json.Marshal(t)
}

// tournamentItem decodes the tournament stored as v under id, and the
// key of its channel in the indexes (tourChannel).
func tournamentItem(v []byte, id string) (*sessions.Tournament, []byte, error) {
	t, err := decodeTournament(v)
	if err != nil {
		return nil, nil, err
	}
	if t.ID != id {
		return nil, nil, damage(fmt.Errorf("the record says tournament %q", t.ID))
	}
	ch, err := tourChannel(t.Key)
	if err != nil {
		return nil, nil, damage(err)
	}
	return t, ch, nil
}

// SplitID splits an Item's ID into its n parts, or fails.
func SplitID(it Item, n int) ([]string, error) {
	p := strings.Split(it.ID, "\x00")
	if len(p) != n || p[0] == "" || p[1] == "" || it.Kind != KindLive && slices.Contains(p, "") {
		return nil, fmt.Errorf("%s %q: bad id", it.Kind, strings.ReplaceAll(it.ID, "\x00", "/"))
	}
	return p, nil
}

// JoinID joins the parts of an Item's ID.
func JoinID(parts ...string) string { return strings.Join(parts, "\x00") }

// Ratings of the ladder index: inverted orders them from the highest
// down; uninverted is the rating back.
func uninverted(b []byte) int { return int(int64(math.MaxInt32) - int64(binary.BigEndian.Uint32(b))) }

// Tally counts the items of a store by kind and keeps a digest of each,
// to check a copy against its source.
type Tally struct {
	Count map[string]int
	sums  map[string][sha256.Size]byte
}

// NewTally returns an empty Tally.
func NewTally() *Tally {
	return &Tally{Count: map[string]int{}, sums: map[string][sha256.Size]byte{}}
}

// Add counts it; the same kind and ID twice is an error.
func (t *Tally) Add(it Item) error {
	k := it.Kind + "\x00" + it.ID
	if _, ok := t.sums[k]; ok {
		return fmt.Errorf("%s %q twice", it.Kind, strings.ReplaceAll(it.ID, "\x00", "/"))
	}
	t.sums[k] = sha256.Sum256(it.Value)
	t.Count[it.Kind]++
	return nil
}

// Total is the number of items.
func (t *Tally) Total() int { return len(t.sums) }

// Diff describes the first differences of u from t (the copy from its
// source), at most five, or returns nil when every item is in both and
// equal.
func (t *Tally) Diff(u *Tally) error {
	var diffs []string
	show := func(k string) string {
		kind, id, _ := strings.Cut(k, "\x00")
		return kind + " " + strconv.Quote(strings.ReplaceAll(id, "\x00", "/"))
	}
	keys := make([]string, 0, len(t.sums))
	for k := range t.sums {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch v, ok := u.sums[k]; {
		case !ok:
			diffs = append(diffs, show(k)+" is missing")
		case v != t.sums[k]:
			diffs = append(diffs, show(k)+" differs")
		}
	}
	extra := 0
	for k := range u.sums {
		if _, ok := t.sums[k]; !ok {
			if extra++; extra == 1 {
				diffs = append(diffs, show(k)+" is not in the source")
			}
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	n := len(diffs)
	if len(diffs) > 5 {
		diffs = diffs[:5]
	}
	return fmt.Errorf("%d differences: %s", n+max(extra-1, 0), strings.Join(diffs, "; "))
}

// openReadOnly opens an existing database read-only (Options.ReadOnly).
func openReadOnly(path string, o Options) (*Store, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	if fi.Size() == 0 {
		return nil, &refusal{path, "is empty", false}
	}
	if err := vet(path, o.Timeout); err != nil {
		return nil, err
	}
	var db *bbolt.DB
	err = guard(func() (err error) {
		db, err = bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, Timeout: o.Timeout})
		return err
	})
	switch {
	case errors.Is(err, bbolt.ErrTimeout):
		return nil, fmt.Errorf("%w: %s is open in another process (is the bot already running?)", ErrLocked, path)
	case err != nil:
		return nil, fmt.Errorf("storage: opening %s: %w", path, err)
	}
	s := &Store{db: db, mode: ModeUpdate, maxBatch: o.MaxBatch, commits: make(chan *commitReq), quit: make(chan struct{}),
		log: o.Log, logged: map[string]bool{}}
	schema := SchemaVersion
	if err := s.view("schema", func(tx *bbolt.Tx) error {
		if m := tx.Bucket(bMeta); m != nil {
			schema, _ = strconv.Atoi(string(m.Get([]byte("schema"))))
		}
		return nil
	}); err != nil {
		db.Close()
		return nil, err
	}
	if schema < SchemaVersion {
		db.Close()
		return nil, fmt.Errorf("storage: %s has schema %d: start this bot on it once (it upgrades the file to schema %d), then try again", path, schema, SchemaVersion)
	}
	built := true
	if err := s.view("buckets", func(tx *bbolt.Tx) error {
		built = tx.Bucket(bGames) == nil || tx.Bucket(bRatedLog) != nil
		return nil
	}); err != nil || !built {
		db.Close()
		if err == nil {
			err = fmt.Errorf("storage: %s was written by an older bot, without the rating history: start this bot on it once (it builds it), then try again", path)
		}
		return nil, err
	}
	return s, nil
}

// exporter emits the items of one kind, read in tx.
type exporter struct {
	kind string
	emit func(tx *bbolt.Tx, emit func(Item) error) error
}

func (s *Store) exporters() []exporter {
	return []exporter{
		{KindCounter, func(tx *bbolt.Tx, emit func(Item) error) error {
			if b := tx.Bucket(bGames); b != nil && b.Sequence() > 0 {
				if err := emit(Item{KindCounter, "games", strconv.AppendUint(nil, b.Sequence(), 10)}); err != nil {
					return err
				}
			}
			if b := tx.Bucket(bTours); b != nil && b.Sequence() > 0 {
				return emit(Item{KindCounter, "tournaments", strconv.AppendUint(nil, b.Sequence(), 10)})
			}
			return nil
		}},
		{KindLive, func(tx *bbolt.Tx, emit func(Item) error) error {
			return each(tx, bLive, func(k, v []byte) error {
				rec, err := loadLive(tx, k, v)
				if err != nil {
					return fmt.Errorf("session %s: %w", keyString(k), err)
				}
				val, err := RecordValue(rec)
				if err != nil {
					return err
				}
				return emit(Item{KindLive, string(k), val})
			})
		}},
		{KindGame, func(tx *bbolt.Tx, emit func(Item) error) error {
			return each(tx, bGames, func(k, v []byte) error {
				if len(k) != 8 {
					return damage(fmt.Errorf("game key %q", k))
				}
				id := strconv.FormatUint(binary.BigEndian.Uint64(k), 10)
				rec, err := decode(v)
				if err != nil {
					return fmt.Errorf("game %s: %w", id, err)
				}
				val, err := RecordValue(rec)
				if err != nil {
					return err
				}
				return emit(Item{KindGame, id, val})
			})
		}},
		{KindHistory, func(tx *bbolt.Tx, emit func(Item) error) error {
			for _, x := range []struct {
				b     []byte
				what  string
				parts int
			}{{bByUser, "user", 2}, {bByChannel, "channel", 3}} {
				err := each(tx, x.b, func(k, _ []byte) error {
					p := strings.Split(string(k[:max(len(k)-9, 0)]), "\x00")
					if len(k) < 9 || k[len(k)-9] != 0 || len(p) != x.parts {
						return damage(fmt.Errorf("history index key %q", k))
					}
					id := strconv.FormatUint(binary.BigEndian.Uint64(k[len(k)-8:]), 10)
					return emit(Item{KindHistory, JoinID(append(append([]string{x.what}, p...), id)...), nil})
				})
				if err != nil {
					return err
				}
			}
			return nil
		}},
		{KindStanding, func(tx *bbolt.Tx, emit func(Item) error) error {
			return each(tx, bRatings, func(k, v []byte) error {
				val, err := standingValue(v)
				if err != nil {
					return fmt.Errorf("standing %q: %w", k, err)
				}
				return emit(Item{KindStanding, string(k), val})
			})
		}},
		{KindLadder, func(tx *bbolt.Tx, emit func(Item) error) error {
			return each(tx, bLadder, func(k, v []byte) error {
				p := bytes.SplitN(k, []byte{0}, 4)
				if len(p) != 4 || len(p[3]) < 4 {
					return damage(fmt.Errorf("ladder key %q", k))
				}
				val, err := standingValue(v)
				if err != nil {
					return fmt.Errorf("ladder %q: %w", k, err)
				}
				id := JoinID(string(p[0]), string(p[1]), string(p[2]), strconv.Itoa(uninverted(p[3][:4])), string(p[3][4:]))
				return emit(Item{KindLadder, id, val})
			})
		}},
		{KindName, func(tx *bbolt.Tx, emit func(Item) error) error {
			return each(tx, bNames, func(k, v []byte) error {
				var u sessions.User
				if err := json.Unmarshal(v, &u); err != nil {
					return fmt.Errorf("name %q: %w", k, damage(err))
				}
				val, err := json.Marshal(u)
				if err != nil {
					return err
				}
				return emit(Item{KindName, string(k), val})
			})
		}},
		{KindPrefs, func(tx *bbolt.Tx, emit func(Item) error) error {
			return each(tx, bPrefs, func(k, v []byte) error {
				p, err := decodePrefs(v)
				if err != nil {
					return fmt.Errorf("preferences %q: %w", k, err)
				}
				val, err := json.Marshal(p)
				if err != nil {
					return err
				}
				return emit(Item{KindPrefs, strings.TrimSuffix(string(k), "\x00"), val})
			})
		}},
		{KindRoute, func(tx *bbolt.Tx, emit func(Item) error) error {
			return each(tx, bRoutes, func(k, v []byte) error {
				r, err := decodeRoute(v)
				if err != nil {
					return fmt.Errorf("route %q: %w", k, err)
				}
				val, err := json.Marshal(r)
				if err != nil {
					return err
				}
				return emit(Item{KindRoute, strings.TrimSuffix(string(k), "\x00"), val})
			})
		}},
		{KindTournament, func(tx *bbolt.Tx, emit func(Item) error) error {
			return each(tx, bTours, func(k, v []byte) error {
				if len(k) != 8 {
					return damage(fmt.Errorf("tournament key %q", k))
				}
				id := strconv.FormatUint(binary.BigEndian.Uint64(k), 10)
				val, err := TournamentValue(v, id)
				if err != nil {
					return fmt.Errorf("tournament %s: %w", id, err)
				}
				return emit(Item{KindTournament, id, val})
			})
		}},
		{KindRated, func(tx *bbolt.Tx, emit func(Item) error) error {
			return each(tx, bRatedLog, func(k, v []byte) error {
				p := bytes.SplitN(k, []byte{0}, 4)
				if len(p) != 4 || len(p[3]) != 16 {
					return damage(fmt.Errorf("rating history key %q", k))
				}
				var r ratedRecord
				if err := json.Unmarshal(v, &r); err != nil {
					return fmt.Errorf("rating history %q: %w", k, damage(err))
				}
				val, err := json.Marshal(r.RatedGame)
				if err != nil {
					return err
				}
				id := JoinID(string(p[0]), string(p[1]), string(p[2]), strconv.FormatInt(int64(binary.BigEndian.Uint64(p[3][:8])), 10),
					strconv.FormatUint(binary.BigEndian.Uint64(p[3][8:]), 10))
				return emit(Item{KindRated, id, val})
			})
		}},
		{KindMember, func(tx *bbolt.Tx, emit func(Item) error) error {
			return each(tx, bMember, func(k, _ []byte) error { return emit(Item{KindMember, string(k), nil}) })
		}},
		{KindCommunityLadder, func(tx *bbolt.Tx, emit func(Item) error) error {
			return each(tx, bCLadder, func(k, v []byte) error {
				p := bytes.SplitN(k, []byte{0}, 5)
				if len(p) != 5 || len(p[4]) < 4 {
					return damage(fmt.Errorf("community ladder key %q", k))
				}
				val, err := standingValue(v)
				if err != nil {
					return fmt.Errorf("community ladder %q: %w", k, err)
				}
				id := JoinID(string(p[0]), string(p[1]), string(p[2]), string(p[3]), strconv.Itoa(uninverted(p[4][:4])), string(p[4][4:]))
				return emit(Item{KindCommunityLadder, id, val})
			})
		}},
	}
}

// each calls fn with every key and value of bucket b (none when the
// database has no such bucket).
func each(tx *bbolt.Tx, b []byte, fn func(k, v []byte) error) error {
	if bk := tx.Bucket(b); bk != nil {
		return bk.ForEach(fn)
	}
	return nil
}

func standingValue(v []byte) ([]byte, error) {
	var sr standingRecord
	if err := json.Unmarshal(v, &sr); err != nil {
		return nil, damage(err)
	}
	return json.Marshal(sr.Standing)
}

// Export calls emit with every record of the database, kind by kind in
// the order of Kinds, all read in one read transaction (a consistent
// copy; commits go on meanwhile). A record that does not decode stops it
// with an error wrapping sessions.ErrDamaged.
func (s *Store) Export(ctx context.Context, emit func(Item) error) error {
	return s.view("the whole file (export)", func(tx *bbolt.Tx) error {
		for _, x := range s.exporters() {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := x.emit(tx, emit); err != nil {
				return fmt.Errorf("storage: exporting %s: %w", x.kind, err)
			}
		}
		return nil
	})
}

// Import writes items into the database in one transaction: each as
// Export gives it, with the indexes the items imply (the live sessions by
// user and by when they are due, the ladders' counts, the tournaments'
// indexes). It is meant for an empty database, in batches of a few
// thousand items: an item already there is overwritten (and its old index
// entries are not removed). A malformed item fails the whole batch,
// naming it.
func (s *Store) Import(ctx context.Context, items []Item) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.update("import", func(tx *bbolt.Tx) error {
		for _, it := range items {
			if err := importItem(tx, it); err != nil {
				return fmt.Errorf("storage: importing %s %q: %w", it.Kind, strings.ReplaceAll(it.ID, "\x00", "/"), err)
			}
		}
		return nil
	})
}

func importItem(tx *bbolt.Tx, it Item) error {
	switch it.Kind {
	case KindCounter:
		n, err := strconv.ParseUint(string(it.Value), 10, 64)
		switch {
		case err == nil && it.ID == "games":
			return tx.Bucket(bGames).SetSequence(n)
		case err == nil && it.ID == "tournaments":
			return tx.Bucket(bTours).SetSequence(n)
		}
		return errors.New("not the counter of games or of tournaments")
	case KindLive:
		p, err := SplitID(it, 3)
		if err != nil {
			return err
		}
		key := sessions.Key{Platform: p[0], Channel: p[1], Thread: p[2]}
		k, err := keyBytes(key)
		if err != nil {
			return err
		}
		rec, err := decode(it.Value)
		if err != nil {
			return err
		}
		if err := putLive(tx, k, rec); err != nil {
			return err
		}
		for _, u := range rec.Seats {
			if u.ID != "" {
				if err := tx.Bucket(bLiveUser).Put(append(join(key.Platform, u.ID), k...), nil); err != nil {
					return err
				}
			}
		}
		return putDue(tx, k, rec.Due())
	case KindGame:
		n, err := strconv.ParseUint(it.ID, 10, 64)
		if err != nil || n == 0 {
			return errors.New("bad game id")
		}
		rec, err := decode(it.Value)
		if err != nil {
			return err
		}
		v, err := encode(rec)
		if err != nil {
			return err
		}
		return tx.Bucket(bGames).Put(u64(n), v)
	case KindHistory:
		p := strings.Split(it.ID, "\x00")
		n, err := strconv.ParseUint(p[len(p)-1], 10, 64)
		switch {
		case err != nil || n == 0:
			return errors.New("bad history entry")
		case p[0] == "user" && len(p) == 4 && p[1] != "" && p[2] != "":
			return tx.Bucket(bByUser).Put(append(join(p[1], p[2]), u64(n)...), nil)
		case p[0] == "channel" && len(p) == 5 && p[1] != "" && p[2] != "":
			return tx.Bucket(bByChannel).Put([]byte(JoinID(p[1], p[2], p[3], "")+string(u64(n))), nil)
		}
		return errors.New("bad history entry")
	case KindStanding:
		if _, err := SplitID(it, 4); err != nil {
			return err
		}
		v, err := standingRecordValue(it.Value)
		if err != nil {
			return err
		}
		return tx.Bucket(bRatings).Put([]byte(it.ID), v)
	case KindLadder:
		p, err := SplitID(it, 5)
		if err != nil {
			return err
		}
		return importRow(tx, bLadder, bCounts, ladderPrefix(p[0], p[1], p[2]), p[3], p[4], it.Value)
	case KindName:
		if _, err := SplitID(it, 2); err != nil {
			return err
		}
		var u sessions.User
		if err := json.Unmarshal(it.Value, &u); err != nil {
			return err
		}
		return tx.Bucket(bNames).Put([]byte(it.ID), it.Value)
	case KindPrefs:
		p, err := SplitID(it, 2)
		if err != nil {
			return err
		}
		if _, err := decodePrefs(it.Value); err != nil {
			return err
		}
		return tx.Bucket(bPrefs).Put(join(p[0], p[1]), it.Value)
	case KindRoute:
		p, err := SplitID(it, 2)
		if err != nil {
			return err
		}
		if _, err := decodeRoute(it.Value); err != nil {
			return err
		}
		return tx.Bucket(bRoutes).Put(join(p[0], p[1]), it.Value)
	case KindTournament:
		return importTournament(tx, it)
	case KindRated:
		return importRated(tx, it)
	case KindMember:
		if _, err := SplitID(it, 5); err != nil {
			return err
		}
		return tx.Bucket(bMember).Put([]byte(it.ID), nil)
	case KindCommunityLadder:
		p, err := SplitID(it, 6)
		if err != nil {
			return err
		}
		return importRow(tx, bCLadder, bCCounts, communityPrefix(p[0], p[1], p[2], p[3]), p[4], p[5], it.Value)
	}
	return errors.New("unknown kind")
}

// importTournament writes a tournament item with its indexes. An active
// one takes its channel in tour_open; of two active in one channel (a
// file of an older bot), the newest holds it, as fillTourOpen does.
func importTournament(tx *bbolt.Tx, it Item) error {
	id, ok := tourID(it.ID)
	if !ok {
		return errors.New("bad tournament id")
	}
	t, ch, err := tournamentItem(it.Value, it.ID)
	if err != nil {
		return err
	}
	if open := tx.Bucket(bTourOpen); t.Status.Active() {
		if holder := open.Get(ch); holder == nil || bytes.Compare(holder, id) < 0 {
			if err := open.Put(bytes.Clone(ch), id); err != nil {
				return err
			}
		}
	}
	return writeTournament(tx, id, ch, t)
}

// importRow writes a ladder's row (of the platform's ladders or a
// community's: ladder and counts) under prefix: the user's standing
// value at rating (decimal), and counts it.
func importRow(tx *bbolt.Tx, ladder, counts []byte, prefix []byte, rating, user string, value []byte) error {
	r, err := strconv.Atoi(rating)
	if err != nil {
		return errors.New("bad rating")
	}
	v, err := standingRecordValue(value)
	if err != nil {
		return err
	}
	k := append(prefix, inverted(r)...)
	if err := tx.Bucket(ladder).Put(append(bytes.Clone(k), user...), v); err != nil {
		return err
	}
	return addCount(tx.Bucket(counts), k, 1)
}

// importRated writes a rating history entry under the key its ID names.
func importRated(tx *bbolt.Tx, it Item) error {
	p, err := SplitID(it, 5)
	if err != nil {
		return err
	}
	at, err := strconv.ParseInt(p[3], 10, 64)
	if err != nil {
		return errors.New("bad time")
	}
	n, err := gameNumber(p[4])
	if err != nil {
		return err
	}
	var g sessions.RatedGame
	if err := json.Unmarshal(it.Value, &g); err != nil {
		return err
	}
	v, err := json.Marshal(ratedRecord{V: 1, RatedGame: g})
	if err != nil {
		return err
	}
	k := binary.BigEndian.AppendUint64([]byte(JoinID(p[0], p[1], p[2], "")), uint64(at))
	return tx.Bucket(bRatedLog).Put(binary.BigEndian.AppendUint64(k, n), v)
}

func standingRecordValue(v []byte) ([]byte, error) {
	var st sessions.Standing
	if err := json.Unmarshal(v, &st); err != nil {
		return nil, err
	}
	return json.Marshal(standingRecord{V: 1, Standing: st})
}

// Exporter is a store that gives its records as Items (Store.Export).
type Exporter interface {
	Export(ctx context.Context, emit func(Item) error) error
}

// Importer is a store that takes Items (Store.Import), a batch at a time.
type Importer interface {
	Import(ctx context.Context, items []Item) error
}

// copyBatch is how many items Copy gives Import at a time.
const copyBatch = 2000

// Copy copies every record of from into to (which should be empty) and
// returns the tally of what it read.
func Copy(ctx context.Context, from Exporter, to Importer) (*Tally, error) {
	t := NewTally()
	batch := make([]Item, 0, copyBatch)
	err := from.Export(ctx, func(it Item) error {
		if err := t.Add(it); err != nil {
			return err
		}
		if batch = append(batch, it); len(batch) == copyBatch {
			if err := to.Import(ctx, batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = to.Import(ctx, batch)
	}
	return t, err
}

// TallyOf reads every record of s into a Tally.
func TallyOf(ctx context.Context, s Exporter) (*Tally, error) {
	t := NewTally()
	return t, s.Export(ctx, t.Add)
}
