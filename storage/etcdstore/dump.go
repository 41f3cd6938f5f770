package etcdstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/dump"
	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// The items of bot migrate (dump.Item): Export reads them all at one
// revision, Import writes them. The request ids (s/) are not copied (see
// dump.Kinds), nor the due index (d/), which Import rebuilds from the
// live sessions.

// scanPage is how many keys one read of Export returns.
const scanPage = 512

// scan calls fn with every key under p at revision rev, in key order,
// a page at a time.
func (s *Store) scan(ctx context.Context, p string, rev int64, fn func(rest string, kv *mvccpb.KeyValue) error) error {
	from, end := p, clientv3.GetPrefixRangeEnd(p)
	for {
		resp, err := s.cli.Get(ctx, from, clientv3.WithRange(end), clientv3.WithRev(rev), clientv3.WithLimit(scanPage),
			clientv3.WithSort(clientv3.SortByKey, clientv3.SortAscend))
		if err != nil {
			return err
		}
		for _, kv := range resp.Kvs {
			if err := fn(string(kv.Key[len(p):]), kv); err != nil {
				return err
			}
		}
		if !resp.More || len(resp.Kvs) == 0 {
			return nil
		}
		from = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
}

// exporter emits the items of one kind, read at revision rev.
type exporter struct {
	kind string
	emit func(ctx context.Context, rev int64, emit func(dump.Item) error) error
}

// exporters are the exporters of the kinds of items, in the dump's order.
func (s *Store) exporters() []exporter {
	return []exporter{
		{dump.KindCounter, s.exportCounter},
		{dump.KindLive, s.exportLive},
		s.records(dump.KindGame, "g/", gameID, gameValue),
		s.records(dump.KindHistory, "u/", historyID("user", 3), nil),
		s.records(dump.KindHistory, "c/", historyID("channel", 4), nil),
		s.records(dump.KindStanding, "r/", partsID(4), standingValue),
		s.records(dump.KindLadder, "l/", ladderRowID(5), standingValue),
		s.records(dump.KindName, "n/", partsID(2), nameValue),
		s.records(dump.KindPrefs, "p/", partsID(2), prefsValue),
		s.records(dump.KindRoute, "o/", partsID(2), routeValue),
		{dump.KindTournament, s.exportTournament},
		s.records(dump.KindRated, "rh/", ratedID, ratedValue),
		s.records(dump.KindMember, "cm/", partsID(5), nil),
		s.records(dump.KindCommunityLadder, "cl/", ladderRowID(6), standingValue),
		s.records(dump.KindLinkGeneration, linkGenPrefix, partsID(2), linkGenValue),
		s.records(dump.KindReview, "rv/", gameID, reviewValue),
	}
}

// badItem is the error of a damaged stored item: what it is, the rest of
// its key (parts split by /), and why.
func badItem(what, rest string, err error) error {
	return fmt.Errorf("%s %q: %w: %v", what, strings.ReplaceAll(rest, "\x00", "/"), sessions.ErrDamaged, err)
}

// records exports the keys under p: id makes an item's ID of the key
// after p, val its Value of the stored value (nil: no value).
func (s *Store) records(kind, p string, id func(rest string) (string, error), val func(v []byte) ([]byte, error)) exporter {
	return exporter{kind, func(ctx context.Context, rev int64, emit func(dump.Item) error) error {
		return s.scan(ctx, s.prefix+p, rev, func(rest string, kv *mvccpb.KeyValue) error {
			i, err := id(rest)
			if err != nil {
				return badItem(kind, rest, err)
			}
			var v []byte
			if val != nil {
				if v, err = val(kv.Value); err != nil {
					return badItem(kind, rest, err)
				}
			}
			return emit(dump.Item{Kind: kind, ID: i, Value: v})
		})
	}}
}

// partsID makes an item's ID of a key of n parts, as it is.
func partsID(n int) func(rest string) (string, error) {
	return func(rest string) (string, error) {
		if p := strings.Split(rest, "\x00"); len(p) != n {
			return "", fmt.Errorf("%d parts, want %d", len(p), n)
		}
		return rest, nil
	}
}

// standingValue is a standing's Value: the standing without what the
// store keeps beside it.
func standingValue(v []byte) ([]byte, error) {
	var sr standingRecord
	if err := json.Unmarshal(v, &sr); err != nil {
		return nil, err
	}
	return json.Marshal(sr.Standing)
}

// ladderRowID makes the ID of a ladder's row of n parts, the rating
// (inverted, in hex) second to last: the platform's ladders and the
// communities'.
func ladderRowID(n int) func(rest string) (string, error) {
	return func(rest string) (string, error) {
		p := strings.Split(rest, "\x00")
		if len(p) != n {
			return "", fmt.Errorf("%d parts, want %d", len(p), n)
		}
		inv, err := strconv.ParseUint(p[n-2], 16, 32)
		if err != nil {
			return "", err
		}
		p[n-2] = strconv.Itoa(uninverted(uint32(inv)))
		return dump.JoinID(p...), nil
	}
}

// historyID makes the ID of an entry of n parts of a history index (of
// a user's or a channel's: what), the game's id last.
func historyID(what string, n int) func(rest string) (string, error) {
	return func(rest string) (string, error) {
		p := strings.Split(rest, "\x00")
		if len(p) != n {
			return "", fmt.Errorf("%d parts, want %d", len(p), n)
		}
		id, err := strconv.ParseUint(p[n-1], 10, 64)
		if err != nil {
			return "", err
		}
		p[n-1] = strconv.FormatUint(id, 10)
		return dump.JoinID(append([]string{what}, p...)...), nil
	}
}

// exportCounter emits the counters of games and of tournaments.
func (s *Store) exportCounter(ctx context.Context, rev int64, emit func(dump.Item) error) error {
	for _, c := range []struct{ id, key string }{{"games", s.nextKey()}, {"tournaments", s.tourCounterKey()}} {
		resp, err := s.cli.Get(ctx, c.key, clientv3.WithRev(rev))
		if err != nil {
			return err
		}
		if len(resp.Kvs) == 0 {
			continue
		}
		if _, err := strconv.ParseUint(string(resp.Kvs[0].Value), 10, 64); err != nil {
			return badItem("the counter of", c.id, err)
		}
		if err := emit(dump.Item{Kind: dump.KindCounter, ID: c.id, Value: resp.Kvs[0].Value}); err != nil {
			return err
		}
	}
	return nil
}

// exportLive emits the live sessions, each with its move log.
func (s *Store) exportLive(ctx context.Context, rev int64, emit func(dump.Item) error) error {
	return s.scan(ctx, s.prefix+"h/", rev, func(rest string, kv *mvccpb.KeyValue) error {
		p := strings.Split(rest, "\x00")
		if len(p) != 3 {
			return badItem("live session", rest, errors.New("not platform, channel and thread"))
		}
		rec, err := s.loadAt(ctx, sessions.Key{Platform: p[0], Channel: p[1], Thread: p[2]}, kv.Value, rev)
		if err != nil {
			return badItem("live session", rest, err)
		}
		v, err := dump.RecordValue(rec)
		if err != nil {
			return err
		}
		return emit(dump.Item{Kind: dump.KindLive, ID: rest, Value: v})
	})
}

// gameID is a finished game's ID: its number.
func gameID(rest string) (string, error) {
	id, err := strconv.ParseUint(rest, 10, 64)
	return strconv.FormatUint(id, 10), err
}

// gameValue is a finished game's Value.
func gameValue(v []byte) ([]byte, error) {
	rec, err := decodeRecord(v)
	if err != nil {
		return nil, err
	}
	return dump.RecordValue(rec)
}

// nameValue is the Value of the user a name was last seen with.
func nameValue(v []byte) ([]byte, error) {
	var u sessions.User
	if err := json.Unmarshal(v, &u); err != nil {
		return nil, err
	}
	return json.Marshal(u)
}

// prefsValue is a user's preferences' Value.
func prefsValue(v []byte) ([]byte, error) {
	var p prefs
	if err := json.Unmarshal(v, &p); err != nil || p.V != 1 {
		return nil, fmt.Errorf("version %d: %v", p.V, err)
	}
	return json.Marshal(p)
}

// routeValue is a channel's route's Value.
func routeValue(v []byte) ([]byte, error) {
	var r route
	if err := json.Unmarshal(v, &r); err != nil || r.V != 1 {
		return nil, fmt.Errorf("version %d: %v", r.V, err)
	}
	return json.Marshal(r)
}

// exportTournament emits the tournaments.
func (s *Store) exportTournament(ctx context.Context, rev int64, emit func(dump.Item) error) error {
	return s.scan(ctx, s.prefix+"t/", rev, func(rest string, kv *mvccpb.KeyValue) error {
		n, err := strconv.ParseUint(rest, 10, 64)
		if err != nil || n == 0 {
			return badItem("tournament", rest, fmt.Errorf("bad id (%v)", err))
		}
		id := strconv.FormatUint(n, 10)
		v, err := dump.TournamentValue(kv.Value, id)
		if err != nil {
			return fmt.Errorf("tournament %s: %w", id, err)
		}
		return emit(dump.Item{Kind: dump.KindTournament, ID: id, Value: v})
	})
}

// ratedID makes the ID of an entry of a rating history: platform, user,
// game, when the game ended and its id.
func ratedID(rest string) (string, error) {
	p := strings.Split(rest, "\x00")
	if len(p) != 5 {
		return "", fmt.Errorf("%d parts, want 5", len(p))
	}
	at, err := strconv.ParseInt(p[3], 10, 64)
	if err != nil {
		return "", err
	}
	id, err := strconv.ParseUint(p[4], 10, 64)
	if err != nil {
		return "", err
	}
	p[3], p[4] = strconv.FormatInt(at, 10), strconv.FormatUint(id, 10)
	return dump.JoinID(p...), nil
}

// ratedValue is an entry of a rating history's Value.
func ratedValue(v []byte) ([]byte, error) {
	var r ratedRecord
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, err
	}
	return json.Marshal(r.RatedGame)
}

// loadAt reads a live session whose head is h with its move log at
// revision rev.
func (s *Store) loadAt(ctx context.Context, key sessions.Key, hv []byte, rev int64) (*sessions.Record, error) {
	var h head
	if err := json.Unmarshal(hv, &h); err != nil {
		return nil, err
	}
	rec, err := decodeRecord(h.Rec)
	if err != nil {
		return nil, err
	}
	rec.Actions = nil
	err = s.scan(ctx, s.movesKey(key), rev, func(rest string, kv *mvccpb.KeyValue) error {
		var as []sessions.Action
		if err := json.Unmarshal(kv.Value, &as); err != nil {
			return fmt.Errorf("moves %s: %v", rest, err)
		}
		rec.Actions = append(rec.Actions, as...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(rec.Actions) != h.N {
		return nil, fmt.Errorf("%d actions, the head says %d", len(rec.Actions), h.N)
	}
	return rec, nil
}

// uninverted is the rating of an inverted one.
func uninverted(v uint32) int { return int(int64(1<<31-1) - int64(v)) }

// Export calls emit with every record under the prefix, kind by kind in
// the order of dump.Kinds, all read at one revision (a consistent
// copy, while other processes write). A record that does not decode
// stops it with an error wrapping sessions.ErrDamaged.
func (s *Store) Export(ctx context.Context, emit func(dump.Item) error) error {
	resp, err := s.cli.Get(ctx, s.nextKey(), clientv3.WithCountOnly())
	if err != nil {
		return fmt.Errorf("etcdstore: exporting: %w", err)
	}
	for _, x := range s.exporters() {
		if err := x.emit(ctx, resp.Header.Revision, emit); err != nil {
			return fmt.Errorf("etcdstore: exporting %s: %w", x.kind, err)
		}
	}
	return nil
}

// Import writes items under the prefix, as Export gives them, with the
// due index of the live sessions; it is meant for an empty prefix. It
// writes in transactions of at most 128 operations (etcd's default
// --max-txn-ops) and about 1 MB, in the order of items (a key written by
// two items, such as the active tournament of a channel, ends as the
// later wrote it): an import that fails midway leaves the items before
// it written. A malformed item fails, naming it, before anything of its
// batch is written.
func (s *Store) Import(ctx context.Context, items []dump.Item) error {
	const maxOps, maxBytes = 128, 1 << 20
	var ops []clientv3.Op
	size := 0
	keys := map[string]bool{} // of ops: etcd refuses a transaction that writes a key twice
	flush := func() error {
		if len(ops) == 0 {
			return nil
		}
		if _, err := s.cli.Txn(ctx).Then(ops...).Commit(); err != nil {
			return fmt.Errorf("etcdstore: importing: %w", err)
		}
		ops, size = ops[:0], 0
		clear(keys)
		return nil
	}
	twice := func(o []clientv3.Op) bool {
		for _, op := range o {
			if keys[string(op.KeyBytes())] {
				return true
			}
		}
		return false
	}
	for _, it := range items {
		o, n, err := s.importOps(it)
		if err != nil {
			return fmt.Errorf("etcdstore: importing %s %q: %w", it.Kind, strings.ReplaceAll(it.ID, "\x00", "/"), err)
		}
		if len(ops)+len(o) > maxOps || size+n > maxBytes || twice(o) {
			if err := flush(); err != nil {
				return err
			}
		}
		for _, op := range o {
			keys[string(op.KeyBytes())] = true
		}
		ops, size = append(ops, o...), size+n
	}
	return flush()
}

// importOps are the writes of one item and their size in bytes.
func (s *Store) importOps(it dump.Item) ([]clientv3.Op, int, error) {
	imp, ok := importers[it.Kind]
	if !ok {
		return nil, 0, errors.New("unknown kind")
	}
	return imp(s, it)
}

// importers give the writes of an Item of each kind, and their size.
var importers = map[string]func(s *Store, it dump.Item) ([]clientv3.Op, int, error){
	dump.KindCounter:         (*Store).importCounter,
	dump.KindLive:            (*Store).importLive,
	dump.KindGame:            (*Store).importGame,
	dump.KindHistory:         (*Store).importHistory,
	dump.KindStanding:        (*Store).importStandingRow,
	dump.KindLadder:          (*Store).importStandingRow,
	dump.KindName:            (*Store).importName,
	dump.KindPrefs:           (*Store).importPrefs,
	dump.KindRoute:           (*Store).importRoute,
	dump.KindTournament:      (*Store).importTournament,
	dump.KindRated:           (*Store).importRated,
	dump.KindMember:          (*Store).importMember,
	dump.KindCommunityLadder: (*Store).importCommunityLadder,
	dump.KindLinkGeneration:  (*Store).importLinkGeneration,
	dump.KindReview: func(s *Store, it dump.Item) ([]clientv3.Op, int, error) {
		k, v, err := s.importReview(it)
		if err != nil {
			return nil, 0, err
		}
		return putOp(k, v)
	},
}

// putOp is the write of v at k, and its size.
func putOp(k string, v []byte) ([]clientv3.Op, int, error) {
	return []clientv3.Op{clientv3.OpPut(k, string(v))}, len(k) + len(v), nil
}

func (s *Store) importCounter(it dump.Item) ([]clientv3.Op, int, error) {
	_, err := strconv.ParseUint(string(it.Value), 10, 64)
	switch {
	case err == nil && it.ID == "games":
		return putOp(s.nextKey(), it.Value)
	case err == nil && it.ID == "tournaments":
		return putOp(s.tourCounterKey(), it.Value)
	}
	return nil, 0, errors.New("not the counter of games or of tournaments")
}

func (s *Store) importLive(it dump.Item) ([]clientv3.Op, int, error) {
	p, err := dump.SplitID(it, 3)
	if err != nil {
		return nil, 0, err
	}
	rec, err := decodeRecord(it.Value)
	if err != nil {
		return nil, 0, err
	}
	ops, err := s.liveOps(&sessions.Change{Key: sessions.Key{Platform: p[0], Channel: p[1], Thread: p[2]}, Live: rec}, seen{})
	return ops, len(it.Value) + 256, err
}

func (s *Store) importGame(it dump.Item) ([]clientv3.Op, int, error) {
	n, err := strconv.ParseUint(it.ID, 10, 64)
	if err != nil || n == 0 {
		return nil, 0, errors.New("bad game id")
	}
	if _, err := decodeRecord(it.Value); err != nil {
		return nil, 0, err
	}
	return putOp(s.gameKey(n), it.Value)
}

func (s *Store) importHistory(it dump.Item) ([]clientv3.Op, int, error) {
	p := strings.Split(it.ID, "\x00")
	n, err := strconv.ParseUint(p[len(p)-1], 10, 64)
	switch {
	case err != nil || n == 0:
	case p[0] == "user" && len(p) == 4 && p[1] != "" && p[2] != "":
		return putOp(fmt.Sprintf("%s%016d", s.userPrefix(p[1], p[2]), n), nil)
	case p[0] == "channel" && len(p) == 5 && p[1] != "" && p[2] != "":
		return putOp(fmt.Sprintf("%s%016d", s.channelPrefix(sessions.Key{Platform: p[1], Channel: p[2], Thread: p[3]}), n), nil)
	}
	return nil, 0, errors.New("bad history entry")
}

func (s *Store) importStandingRow(it dump.Item) ([]clientv3.Op, int, error) {
	var st sessions.Standing
	if err := json.Unmarshal(it.Value, &st); err != nil {
		return nil, 0, err
	}
	v, err := json.Marshal(standingRecord{V: 1, Standing: st})
	if err != nil {
		return nil, 0, err
	}
	if it.Kind == dump.KindStanding {
		if _, err := dump.SplitID(it, 4); err != nil {
			return nil, 0, err
		}
		return putOp(s.prefix+"r/"+it.ID, v)
	}
	p, err := dump.SplitID(it, 5)
	if err != nil {
		return nil, 0, err
	}
	rating, err := strconv.Atoi(p[3])
	if err != nil {
		return nil, 0, errors.New("bad rating")
	}
	return putOp(s.ladderPrefix(p[0], p[1], p[2])+inverted(rating)+"\x00"+p[4], v)
}

func (s *Store) importName(it dump.Item) ([]clientv3.Op, int, error) {
	var u sessions.User
	if _, err := dump.SplitID(it, 2); err != nil {
		return nil, 0, err
	}
	if err := json.Unmarshal(it.Value, &u); err != nil {
		return nil, 0, err
	}
	return putOp(s.prefix+"n/"+it.ID, it.Value)
}

func (s *Store) importPrefs(it dump.Item) ([]clientv3.Op, int, error) {
	var p prefs
	if _, err := dump.SplitID(it, 2); err != nil {
		return nil, 0, err
	}
	if err := json.Unmarshal(it.Value, &p); err != nil || p.V != 1 {
		return nil, 0, fmt.Errorf("bad preferences (version %d)", p.V)
	}
	return putOp(s.prefix+"p/"+it.ID, it.Value)
}

func (s *Store) importRoute(it dump.Item) ([]clientv3.Op, int, error) {
	var r route
	if _, err := dump.SplitID(it, 2); err != nil {
		return nil, 0, err
	}
	if err := json.Unmarshal(it.Value, &r); err != nil || r.V != 1 {
		return nil, 0, fmt.Errorf("bad route (version %d)", r.V)
	}
	return putOp(s.prefix+"o/"+it.ID, it.Value)
}

func (s *Store) importTournament(it dump.Item) ([]clientv3.Op, int, error) {
	// Written as PutTournament writes a new one, the channel's to/
	// taken when it is active (of two active in one channel, the
	// newer, written later, holds it).
	n, err := strconv.ParseUint(it.ID, 10, 64)
	if err != nil || n == 0 {
		return nil, 0, errors.New("bad tournament id")
	}
	v, err := dump.TournamentValue(it.Value, it.ID)
	if err != nil {
		return nil, 0, err
	}
	t, err := decodeTournament(v)
	if err != nil {
		return nil, 0, err
	}
	ch, err := s.tourChannelPrefix(t.Key)
	if err != nil {
		return nil, 0, err
	}
	ops := s.recordOps(n, t, v, ch, "")
	if t.Status.Active() {
		ops = append(ops, clientv3.OpPut(s.openKey(t.Key), fmt.Sprintf("%016d", n)))
	}
	return ops, len(v) + 512, nil
}

func (s *Store) importRated(it dump.Item) ([]clientv3.Op, int, error) {
	p, err := dump.SplitID(it, 5)
	if err != nil {
		return nil, 0, err
	}
	at, err := strconv.ParseInt(p[3], 10, 64)
	if err != nil {
		return nil, 0, errors.New("bad time")
	}
	id, err := strconv.ParseUint(p[4], 10, 64)
	if err != nil || id == 0 {
		return nil, 0, errors.New("bad game id")
	}
	var g sessions.RatedGame
	if err := json.Unmarshal(it.Value, &g); err != nil {
		return nil, 0, err
	}
	v, err := json.Marshal(ratedRecord{V: 1, RatedGame: g})
	if err != nil {
		return nil, 0, err
	}
	return putOp(fmt.Sprintf("%s%020d\x00%016d", s.ratedPrefix(p[0], p[1], p[2]), at, id), v)
}

func (s *Store) importMember(it dump.Item) ([]clientv3.Op, int, error) {
	p, err := dump.SplitID(it, 5)
	if err != nil {
		return nil, 0, err
	}
	return putOp(s.memberPrefix(p[0], p[1], p[2], p[3])+p[4], nil)
}

func (s *Store) importCommunityLadder(it dump.Item) ([]clientv3.Op, int, error) {
	p, err := dump.SplitID(it, 6)
	if err != nil {
		return nil, 0, err
	}
	rating, err := strconv.Atoi(p[4])
	if err != nil {
		return nil, 0, errors.New("bad rating")
	}
	var st sessions.Standing
	if err := json.Unmarshal(it.Value, &st); err != nil {
		return nil, 0, err
	}
	v, err := json.Marshal(standingRecord{V: 1, Standing: st})
	if err != nil {
		return nil, 0, err
	}
	// The row, and the rating it is at in its membership (cm/).
	k := s.cladderRow(p[0], p[1], p[2], p[3], rating, p[5])
	return []clientv3.Op{clientv3.OpPut(k, string(v)), clientv3.OpPut(s.memberPrefix(p[0], p[5], p[2], p[3])+p[1], p[4])}, len(k) + len(v) + 64, nil
}

// Keys counts the keys under the prefix (request ids and the elections
// of running bots included).
func (s *Store) Keys(ctx context.Context) (int64, error) {
	resp, err := s.cli.Get(ctx, s.prefix, clientv3.WithPrefix(), clientv3.WithCountOnly())
	if err != nil {
		return 0, fmt.Errorf("etcdstore: counting the keys under %s: %w", s.prefix, err)
	}
	return resp.Count, nil
}

// DeleteAll deletes every key under the prefix and returns how many.
func (s *Store) DeleteAll(ctx context.Context) (int64, error) {
	resp, err := s.cli.Delete(ctx, s.prefix, clientv3.WithPrefix())
	if err != nil {
		return 0, fmt.Errorf("etcdstore: deleting the keys under %s: %w", s.prefix, err)
	}
	return resp.Deleted, nil
}

// Running counts the bot processes on this prefix: each campaigns in the
// clocks' election while it runs.
func (s *Store) Running(ctx context.Context) (int64, error) {
	resp, err := s.cli.Get(ctx, s.prefix+clockElection+"/", clientv3.WithPrefix(), clientv3.WithCountOnly())
	if err != nil {
		return 0, fmt.Errorf("etcdstore: reading the clocks' election: %w", err)
	}
	return resp.Count, nil
}

func (s *Store) importLinkGeneration(it dump.Item) ([]clientv3.Op, int, error) {
	if _, err := dump.SplitID(it, 2); err != nil {
		return nil, 0, err
	}
	if _, err := linkGenValue(it.Value); err != nil {
		return nil, 0, err
	}
	return putOp(s.prefix+linkGenPrefix+it.ID, it.Value)
}
