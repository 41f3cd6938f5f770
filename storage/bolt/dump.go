package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/dump"
	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// tournamentItem decodes the tournament stored as v under id, and the
// key of its channel in the indexes (tourChannel).
func tournamentItem(v []byte, id string) (*sessions.Tournament, []byte, error) {
	t, err := dump.Tournament(v, id)
	if err != nil {
		return nil, nil, err
	}
	ch, err := tourChannel(t.Key)
	if err != nil {
		return nil, nil, damage(err)
	}
	return t, ch, nil
}

// Ratings of the ladder index: inverted orders them from the highest
// down; uninverted is the rating back.
func uninverted(b []byte) int { return int(int64(math.MaxInt32) - int64(binary.BigEndian.Uint32(b))) }

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
	case errors.Is(err, berrors.ErrTimeout):
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
	emit func(tx *bbolt.Tx, emit func(dump.Item) error) error
}

// exporters are the exporters of the kinds of items, in the dump's order.
func (s *Store) exporters() []exporter {
	return []exporter{
		{dump.KindCounter, exportCounter},
		{dump.KindLive, exportLive},
		{dump.KindGame, exportGame},
		{dump.KindHistory, exportHistory},
		{dump.KindStanding, exportStanding},
		{dump.KindLadder, exportLadder},
		{dump.KindName, exportName},
		{dump.KindPrefs, exportPrefs},
		{dump.KindRoute, exportRoute},
		{dump.KindTournament, exportTournament},
		{dump.KindRated, exportRated},
		{dump.KindMember, exportMember},
		{dump.KindCommunityLadder, exportCommunityLadder},
		{dump.KindLinkGeneration, exportLinkGenerations},
		{dump.KindReview, exportReview},
	}
}

// exportCounter emits the items of dump.KindCounter.
func exportCounter(tx *bbolt.Tx, emit func(dump.Item) error) error {
	if b := tx.Bucket(bGames); b != nil && b.Sequence() > 0 {
		if err := emit(dump.Item{Kind: dump.KindCounter, ID: "games", Value: strconv.AppendUint(nil, b.Sequence(), 10)}); err != nil {
			return err
		}
	}
	if b := tx.Bucket(bTours); b != nil && b.Sequence() > 0 {
		return emit(dump.Item{Kind: dump.KindCounter, ID: "tournaments", Value: strconv.AppendUint(nil, b.Sequence(), 10)})
	}
	return nil
}

// exportLive emits the items of dump.KindLive.
func exportLive(tx *bbolt.Tx, emit func(dump.Item) error) error {
	return each(tx, bLive, func(k, v []byte) error {
		rec, err := loadLive(tx, k, v)
		if err != nil {
			return fmt.Errorf("session %s: %w", keyString(k), err)
		}
		val, err := dump.RecordValue(rec)
		if err != nil {
			return err
		}
		return emit(dump.Item{Kind: dump.KindLive, ID: string(k), Value: val})
	})
}

// exportGame emits the items of dump.KindGame.
func exportGame(tx *bbolt.Tx, emit func(dump.Item) error) error {
	return each(tx, bGames, func(k, v []byte) error {
		if len(k) != 8 {
			return damage(fmt.Errorf("game key %q", k))
		}
		id := strconv.FormatUint(binary.BigEndian.Uint64(k), 10)
		rec, err := decode(v)
		if err != nil {
			return fmt.Errorf("game %s: %w", id, err)
		}
		val, err := dump.RecordValue(rec)
		if err != nil {
			return err
		}
		return emit(dump.Item{Kind: dump.KindGame, ID: id, Value: val})
	})
}

// exportHistory emits the items of dump.KindHistory.
func exportHistory(tx *bbolt.Tx, emit func(dump.Item) error) error {
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
			return emit(dump.Item{Kind: dump.KindHistory, ID: dump.JoinID(append(append([]string{x.what}, p...), id)...)})
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// exportStanding emits the items of dump.KindStanding.
func exportStanding(tx *bbolt.Tx, emit func(dump.Item) error) error {
	return each(tx, bRatings, func(k, v []byte) error {
		val, err := standingValue(v)
		if err != nil {
			return fmt.Errorf("standing %q: %w", k, err)
		}
		return emit(dump.Item{Kind: dump.KindStanding, ID: string(k), Value: val})
	})
}

// exportLadder emits the items of dump.KindLadder.
func exportLadder(tx *bbolt.Tx, emit func(dump.Item) error) error {
	return each(tx, bLadder, func(k, v []byte) error {
		p := bytes.SplitN(k, []byte{0}, 4)
		if len(p) != 4 || len(p[3]) < 4 {
			return damage(fmt.Errorf("ladder key %q", k))
		}
		val, err := standingValue(v)
		if err != nil {
			return fmt.Errorf("ladder %q: %w", k, err)
		}
		id := dump.JoinID(string(p[0]), string(p[1]), string(p[2]), strconv.Itoa(uninverted(p[3][:4])), string(p[3][4:]))
		return emit(dump.Item{Kind: dump.KindLadder, ID: id, Value: val})
	})
}

// exportName emits the items of dump.KindName.
func exportName(tx *bbolt.Tx, emit func(dump.Item) error) error {
	return each(tx, bNames, func(k, v []byte) error {
		var u sessions.User
		if err := json.Unmarshal(v, &u); err != nil {
			return fmt.Errorf("name %q: %w", k, damage(err))
		}
		val, err := json.Marshal(u)
		if err != nil {
			return err
		}
		return emit(dump.Item{Kind: dump.KindName, ID: string(k), Value: val})
	})
}

// exportPrefs emits the items of dump.KindPrefs.
func exportPrefs(tx *bbolt.Tx, emit func(dump.Item) error) error {
	return each(tx, bPrefs, func(k, v []byte) error {
		p, err := decodePrefs(v)
		if err != nil {
			return fmt.Errorf("preferences %q: %w", k, err)
		}
		val, err := json.Marshal(p)
		if err != nil {
			return err
		}
		return emit(dump.Item{Kind: dump.KindPrefs, ID: strings.TrimSuffix(string(k), "\x00"), Value: val})
	})
}

// exportRoute emits the items of dump.KindRoute.
func exportRoute(tx *bbolt.Tx, emit func(dump.Item) error) error {
	return each(tx, bRoutes, func(k, v []byte) error {
		r, err := decodeRoute(v)
		if err != nil {
			return fmt.Errorf("route %q: %w", k, err)
		}
		val, err := json.Marshal(r)
		if err != nil {
			return err
		}
		return emit(dump.Item{Kind: dump.KindRoute, ID: strings.TrimSuffix(string(k), "\x00"), Value: val})
	})
}

// exportTournament emits the items of dump.KindTournament.
func exportTournament(tx *bbolt.Tx, emit func(dump.Item) error) error {
	return each(tx, bTours, func(k, v []byte) error {
		if len(k) != 8 {
			return damage(fmt.Errorf("tournament key %q", k))
		}
		id := strconv.FormatUint(binary.BigEndian.Uint64(k), 10)
		val, err := dump.TournamentValue(v, id)
		if err != nil {
			return fmt.Errorf("tournament %s: %w", id, err)
		}
		return emit(dump.Item{Kind: dump.KindTournament, ID: id, Value: val})
	})
}

// exportRated emits the items of dump.KindRated.
func exportRated(tx *bbolt.Tx, emit func(dump.Item) error) error {
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
		id := dump.JoinID(string(p[0]), string(p[1]), string(p[2]), strconv.FormatInt(int64(binary.BigEndian.Uint64(p[3][:8])), 10),
			strconv.FormatUint(binary.BigEndian.Uint64(p[3][8:]), 10))
		return emit(dump.Item{Kind: dump.KindRated, ID: id, Value: val})
	})
}

// exportMember emits the items of dump.KindMember.
func exportMember(tx *bbolt.Tx, emit func(dump.Item) error) error {
	return each(tx, bMember, func(k, _ []byte) error { return emit(dump.Item{Kind: dump.KindMember, ID: string(k), Value: nil}) })
}

// exportCommunityLadder emits the items of dump.KindCommunityLadder.
func exportCommunityLadder(tx *bbolt.Tx, emit func(dump.Item) error) error {
	return each(tx, bCLadder, func(k, v []byte) error {
		p := bytes.SplitN(k, []byte{0}, 5)
		if len(p) != 5 || len(p[4]) < 4 {
			return damage(fmt.Errorf("community ladder key %q", k))
		}
		val, err := standingValue(v)
		if err != nil {
			return fmt.Errorf("community ladder %q: %w", k, err)
		}
		id := dump.JoinID(string(p[0]), string(p[1]), string(p[2]), string(p[3]), strconv.Itoa(uninverted(p[4][:4])), string(p[4][4:]))
		return emit(dump.Item{Kind: dump.KindCommunityLadder, ID: id, Value: val})
	})
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
// the order of dump.Kinds, all read in one read transaction (a consistent
// copy; commits go on meanwhile). A record that does not decode stops it
// with an error wrapping sessions.ErrDamaged.
func (s *Store) Export(ctx context.Context, emit func(dump.Item) error) error {
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
func (s *Store) Import(ctx context.Context, items []dump.Item) error {
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

func importItem(tx *bbolt.Tx, it dump.Item) error {
	imp, ok := importers[it.Kind]
	if !ok {
		return errors.New("unknown kind")
	}
	return imp(tx, it)
}

// importers write an Item of each kind into its buckets.
var importers = map[string]func(tx *bbolt.Tx, it dump.Item) error{
	dump.KindCounter:         importCounter,
	dump.KindLive:            importLive,
	dump.KindGame:            importGame,
	dump.KindHistory:         importHistory,
	dump.KindStanding:        importStanding,
	dump.KindLadder:          importLadder,
	dump.KindName:            importName,
	dump.KindPrefs:           importPrefs,
	dump.KindRoute:           importRoute,
	dump.KindTournament:      importTournament,
	dump.KindRated:           importRated,
	dump.KindMember:          importMember,
	dump.KindCommunityLadder: importCommunityLadder,
	dump.KindLinkGeneration:  importLinkGeneration,
	dump.KindReview:          importReview,
}

func importCounter(tx *bbolt.Tx, it dump.Item) error {
	n, err := strconv.ParseUint(string(it.Value), 10, 64)
	switch {
	case err == nil && it.ID == "games":
		return tx.Bucket(bGames).SetSequence(n)
	case err == nil && it.ID == "tournaments":
		return tx.Bucket(bTours).SetSequence(n)
	}
	return errors.New("not the counter of games or of tournaments")
}

func importLive(tx *bbolt.Tx, it dump.Item) error {
	p, err := dump.SplitID(it, 3)
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
}

func importGame(tx *bbolt.Tx, it dump.Item) error {
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
}

func importHistory(tx *bbolt.Tx, it dump.Item) error {
	p := strings.Split(it.ID, "\x00")
	n, err := strconv.ParseUint(p[len(p)-1], 10, 64)
	switch {
	case err != nil || n == 0:
		return errors.New("bad history entry")
	case p[0] == "user" && len(p) == 4 && p[1] != "" && p[2] != "":
		return tx.Bucket(bByUser).Put(append(join(p[1], p[2]), u64(n)...), nil)
	case p[0] == "channel" && len(p) == 5 && p[1] != "" && p[2] != "":
		return tx.Bucket(bByChannel).Put([]byte(dump.JoinID(p[1], p[2], p[3], "")+string(u64(n))), nil)
	}
	return errors.New("bad history entry")
}

func importStanding(tx *bbolt.Tx, it dump.Item) error {
	if _, err := dump.SplitID(it, 4); err != nil {
		return err
	}
	v, err := standingRecordValue(it.Value)
	if err != nil {
		return err
	}
	return tx.Bucket(bRatings).Put([]byte(it.ID), v)
}

func importLadder(tx *bbolt.Tx, it dump.Item) error {
	p, err := dump.SplitID(it, 5)
	if err != nil {
		return err
	}
	return importRow(tx, bLadder, bCounts, ladderPrefix(p[0], p[1], p[2]), p[3], p[4], it.Value)
}

func importName(tx *bbolt.Tx, it dump.Item) error {
	if _, err := dump.SplitID(it, 2); err != nil {
		return err
	}
	var u sessions.User
	if err := json.Unmarshal(it.Value, &u); err != nil {
		return err
	}
	return tx.Bucket(bNames).Put([]byte(it.ID), it.Value)
}

func importPrefs(tx *bbolt.Tx, it dump.Item) error {
	p, err := dump.SplitID(it, 2)
	if err != nil {
		return err
	}
	if _, err := decodePrefs(it.Value); err != nil {
		return err
	}
	return tx.Bucket(bPrefs).Put(join(p[0], p[1]), it.Value)
}

func importRoute(tx *bbolt.Tx, it dump.Item) error {
	p, err := dump.SplitID(it, 2)
	if err != nil {
		return err
	}
	if _, err := decodeRoute(it.Value); err != nil {
		return err
	}
	return tx.Bucket(bRoutes).Put(join(p[0], p[1]), it.Value)
}

func importMember(tx *bbolt.Tx, it dump.Item) error {
	if _, err := dump.SplitID(it, 5); err != nil {
		return err
	}
	return tx.Bucket(bMember).Put([]byte(it.ID), nil)
}

func importCommunityLadder(tx *bbolt.Tx, it dump.Item) error {
	p, err := dump.SplitID(it, 6)
	if err != nil {
		return err
	}
	return importRow(tx, bCLadder, bCCounts, communityPrefix(p[0], p[1], p[2], p[3]), p[4], p[5], it.Value)
}

// importTournament writes a tournament item with its indexes. An active
// one takes its channel in tour_open; of two active in one channel (a
// file of an older bot), the newest holds it, as fillTourOpen does.
func importTournament(tx *bbolt.Tx, it dump.Item) error {
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
func importRated(tx *bbolt.Tx, it dump.Item) error {
	p, err := dump.SplitID(it, 5)
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
	k := binary.BigEndian.AppendUint64([]byte(dump.JoinID(p[0], p[1], p[2], "")), uint64(at))
	return tx.Bucket(bRatedLog).Put(binary.BigEndian.AppendUint64(k, n), v)
}

func standingRecordValue(v []byte) ([]byte, error) {
	var st sessions.Standing
	if err := json.Unmarshal(v, &st); err != nil {
		return nil, err
	}
	return json.Marshal(standingRecord{V: 1, Standing: st})
}
