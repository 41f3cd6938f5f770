package etcdstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/sessions"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Tournaments (see the layout in the package documentation): t/<id> is
// the record, ta/<id> marks the active ones, tc/<platform 0 channel> 0
// <id> indexes them by channel, to/<platform 0 channel> holds the id of a
// channel's active tournament, meta/next-tournament counts them. A write
// is one transaction comparing the record's mod revision with the one
// read when its Rev was checked (a new tournament: the counter's), so
// that two writers at one Rev write once. A write that makes a
// tournament active in a channel also compares to/ of the channel
// absent (CreateRevision 0) and puts it, so that of two processes
// opening a tournament in one channel at once, one does; the write that
// ends it (or moves it) deletes it.

func (s *Store) tourKey(id uint64) string   { return fmt.Sprintf("%st/%016d", s.prefix, id) }
func (s *Store) activeKey(id uint64) string { return fmt.Sprintf("%sta/%016d", s.prefix, id) }
func (s *Store) tourCounterKey() string     { return s.prefix + "meta/next-tournament" }
func (s *Store) activePrefix() string       { return s.prefix + "ta/" }
func (s *Store) openKey(k sessions.Key) string {
	return s.prefix + "to/" + k.Platform + "\x00" + k.Channel
}
func (s *Store) tourChannelPrefix(k sessions.Key) (string, error) {
	if k.Platform == "" || k.Channel == "" || strings.ContainsRune(k.Platform+k.Channel, 0) {
		return "", fmt.Errorf("etcdstore: bad tournament channel %q", k.String())
	}
	return s.prefix + "tc/" + k.Platform + "\x00" + k.Channel + "\x00", nil
}

func decodeTournament(b []byte) (*sessions.Tournament, error) {
	var t sessions.Tournament
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, err
	}
	if t.V < 1 || t.V > sessions.TournamentVersion {
		return nil, fmt.Errorf("tournament version %d", t.V)
	}
	return &t, nil
}

// tourWrite is the transaction part of one tournament write: its
// compares and puts, the tournament as written, and the key whose mod
// revision the compare is on (the record's, or the counter's for a new
// one: then a failed compare means only that another tournament took the
// id, and the write runs again).
type tourWrite struct {
	cmps  []clientv3.Cmp
	ops   []clientv3.Op
	t     *sessions.Tournament
	check string
	rev   int64
	isNew bool
	// claim, when set, is the to/ key of the channel that the write
	// takes (compared absent).
	claim string
}

// tourOps prepares the write of t (compare-and-set on Rev): it reads the
// stored tournament (or the counter) and fails with ErrConflict or
// ErrNotFound as PutTournament does. gameID, when set, is the finished
// game of f to write in its TourGame (Change.Tournament).
func (s *Store) tourOps(ctx context.Context, t *sessions.Tournament, f *sessions.Record, gameID string) (*tourWrite, error) {
	t = t.Clone()
	if f != nil && f.Tour != nil && f.Tour.ID == t.ID &&
		f.Tour.Round >= 1 && f.Tour.Round <= len(t.Played) && f.Tour.Board >= 0 && f.Tour.Board < len(t.Played[f.Tour.Round-1].Games) {
		t.Played[f.Tour.Round-1].Games[f.Tour.Board].GameID = gameID
	}
	ch, err := s.tourChannelPrefix(t.Key)
	if err != nil {
		return nil, err
	}
	w := &tourWrite{t: t}
	var id uint64
	oldChannel := ""
	var old *sessions.Tournament
	if t.ID == "" {
		if t.Rev != 1 {
			return nil, fmt.Errorf("etcdstore: new tournament at rev %d: %w", t.Rev, sessions.ErrConflict)
		}
		w.check, w.isNew = s.tourCounterKey(), true
		resp, err := s.cli.Get(ctx, w.check)
		if err != nil {
			return nil, fmt.Errorf("etcdstore: reading the tournament counter: %w", err)
		}
		id = 1
		if len(resp.Kvs) > 0 {
			n, err := strconv.ParseUint(string(resp.Kvs[0].Value), 10, 64)
			if err != nil {
				return nil, s.damage("the tournament counter", err)
			}
			id, w.rev = n+1, resp.Kvs[0].ModRevision
		}
		t.ID = strconv.FormatUint(id, 10)
		// Never over another tournament: the counter is behind the
		// records (keys written by hand, a counter lost). Read at the
		// counter's revision: a tournament another process created since
		// is a counter conflict, which the write's compare catches.
		if taken, err := s.cli.Get(ctx, s.tourKey(id), clientv3.WithCountOnly(), clientv3.WithRev(resp.Header.Revision)); err != nil {
			return nil, fmt.Errorf("etcdstore: reading tournament %s: %w", t.ID, err)
		} else if taken.Count > 0 {
			return nil, s.damage("the tournament counter", fmt.Errorf("it is at %d, but tournament %d exists", id-1, id))
		}
		w.ops = append(w.ops, clientv3.OpPut(w.check, t.ID))
	} else {
		id, err = strconv.ParseUint(t.ID, 10, 64)
		if err != nil || id == 0 {
			return nil, fmt.Errorf("tournament %q: %w", t.ID, sessions.ErrNotFound)
		}
		w.check = s.tourKey(id)
		resp, err := s.cli.Get(ctx, w.check)
		if err != nil {
			return nil, fmt.Errorf("etcdstore: reading tournament %s: %w", t.ID, err)
		}
		if len(resp.Kvs) == 0 {
			return nil, fmt.Errorf("tournament %s: %w", t.ID, sessions.ErrNotFound)
		}
		old, err = decodeTournament(resp.Kvs[0].Value)
		if err != nil {
			return nil, s.damage("tournament "+t.ID, err)
		}
		if old.Rev != t.Rev-1 {
			return nil, fmt.Errorf("etcdstore: tournament %s at rev %d, not %d: %w", t.ID, old.Rev, t.Rev-1, sessions.ErrConflict)
		}
		w.rev = resp.Kvs[0].ModRevision
		oldChannel, _ = s.tourChannelPrefix(old.Key)
	}
	w.cmps = append(w.cmps, clientv3.Compare(clientv3.ModRevision(w.check), "=", w.rev))
	if t.V == 0 {
		t.V = sessions.TournamentVersion
	}
	v, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	idk := fmt.Sprintf("%016d", id)
	w.ops = append(w.ops, s.recordOps(id, t, v, ch, oldChannel)...)
	if err := s.openOps(ctx, w, old, idk); err != nil {
		return nil, err
	}
	return w, nil
}

// recordOps are the writes of tournament t, whose JSON is v, under id:
// its record and its entries in the indexes of active tournaments and by
// channel (ch, its channel's prefix there; oldChannel the stored
// tournament's, "" for none). to/ is the caller's.
func (s *Store) recordOps(id uint64, t *sessions.Tournament, v []byte, ch, oldChannel string) []clientv3.Op {
	idk := fmt.Sprintf("%016d", id)
	ops := []clientv3.Op{clientv3.OpPut(s.tourKey(id), string(v))}
	if oldChannel != ch {
		if oldChannel != "" {
			ops = append(ops, clientv3.OpDelete(oldChannel+idk))
		}
		ops = append(ops, clientv3.OpPut(ch+idk, ""))
	}
	if t.Status.Active() {
		return append(ops, clientv3.OpPut(s.activeKey(id), ""))
	}
	return append(ops, clientv3.OpDelete(s.activeKey(id)))
}

// openOps adds to w what the write does to to/, the active tournament of
// a channel (old is the stored tournament, nil for a new one; idk its id
// as written there): it claims the channel when t becomes active there,
// failing at once when another tournament holds it, and gives it up when
// t stops being active there. A write that keeps t active in its channel
// reads nothing more (a tournament active before to/ existed claims no
// channel: only the Service's check keeps a second one out there).
func (s *Store) openOps(ctx context.Context, w *tourWrite, old *sessions.Tournament, idk string) error {
	t := w.t
	was := old != nil && old.Status.Active()
	stays := was && old.Key.Platform == t.Key.Platform && old.Key.Channel == t.Key.Channel
	if t.Status.Active() && !stays {
		k := s.openKey(t.Key)
		resp, err := s.cli.Get(ctx, k)
		if err != nil {
			return fmt.Errorf("etcdstore: reading the active tournament of %s: %w", t.Key, err)
		}
		switch {
		case len(resp.Kvs) == 0:
			w.claim = k
			w.cmps = append(w.cmps, clientv3.Compare(clientv3.CreateRevision(k), "=", 0))
			w.ops = append(w.ops, clientv3.OpPut(k, idk))
		case string(resp.Kvs[0].Value) != idk:
			return openConflict(t.Key, string(resp.Kvs[0].Value))
		}
	}
	if was && (!stays || !t.Status.Active()) {
		k := s.openKey(old.Key)
		resp, err := s.cli.Get(ctx, k)
		if err != nil {
			return fmt.Errorf("etcdstore: reading the active tournament of %s: %w", old.Key, err)
		}
		// Only t's own writes change a key that holds its id, and they
		// compare t's record: no compare needed here.
		if len(resp.Kvs) > 0 && string(resp.Kvs[0].Value) == idk {
			w.ops = append(w.ops, clientv3.OpDelete(k))
		}
	}
	return nil
}

// openConflict is the error of a write that would make a second
// tournament active in a channel (other: the id of the one there).
func openConflict(k sessions.Key, other string) error {
	return fmt.Errorf("etcdstore: tournament %s is active in %s channel %s: %w (%w)", strings.TrimLeft(other, "0"), k.Platform, k.Channel, sessions.ErrTournamentOpen, sessions.ErrConflict)
}

// elses are the reads a transaction holding w runs when it fails, for
// failed: the record's (or counter's) key, then the claimed channel's.
func (w *tourWrite) elses() []clientv3.Op {
	ops := []clientv3.Op{clientv3.OpGet(w.check, clientv3.WithKeysOnly())}
	if w.claim != "" {
		ops = append(ops, clientv3.OpGet(w.claim))
	}
	return ops
}

// failed is the error of w in a transaction resp that failed, from the
// responses of its elses (from index at): ErrTournamentOpen (and
// ErrConflict) when another tournament took the channel first,
// ErrConflict when another write changed the tournament, nil when
// neither did (the counter moved, or another part of the transaction
// failed: run it again).
func (w *tourWrite) failed(resp *clientv3.TxnResponse, at int) error {
	check := resp.Responses[at].GetResponseRange().Kvs
	if w.claim != "" {
		if claim := resp.Responses[at+1].GetResponseRange().Kvs; len(claim) > 0 {
			return openConflict(w.t.Key, string(claim[0].Value))
		}
	}
	if len(check) > 0 && check[0].ModRevision == w.rev || len(check) == 0 && w.rev == 0 {
		return nil
	}
	return w.conflict()
}

// conflict is the error of a write w whose compare failed: a conflict
// for a tournament that another write changed, nil for a new one (the
// counter moved: write it again).
func (w *tourWrite) conflict() error {
	if w.isNew {
		return nil
	}
	return fmt.Errorf("etcdstore: tournament %s changed in another process: %w", w.t.ID, sessions.ErrConflict)
}

// PutTournament implements sessions.Store.
func (s *Store) PutTournament(ctx context.Context, t *sessions.Tournament) error {
	for i := range 16 {
		if err := ctx.Err(); err != nil && i > 0 {
			return fmt.Errorf("etcdstore: writing tournament %s: %w", t.ID, err)
		}
		done, id, err := s.putTournament(ctx, t)
		if err != nil {
			return err
		}
		if done {
			t.ID = id
			return nil
		}
	}
	return errors.New("etcdstore: writing a new tournament: too much contention on the tournament counter")
}

// putTournament runs one transaction of PutTournament. It reports
// done=false when the tournament counter moved, or when the answer was
// lost and the write did not apply (outcome.go): run it again, reading
// the tournament again.
func (s *Store) putTournament(ctx context.Context, t *sessions.Tournament) (done bool, id string, err error) {
	ctx, cancel := s.bounded(ctx)
	defer cancel()
	w, err := s.tourOps(ctx, t, nil, "")
	if err != nil {
		return false, "", err
	}
	mlease, err := s.lease(ctx, &s.markers)
	if err != nil {
		return false, "", err
	}
	mk := s.newMarker()
	cmps, ops := marked(mk, mlease, w.cmps, w.ops)
	resp, err := s.cli.Txn(ctx).If(cmps...).Then(ops...).Else(w.elses()...).Commit()
	if err != nil {
		applied, _, err := s.lost(ctx, "writing tournament "+w.t.ID, err, mk, mlease)
		return applied, w.t.ID, err
	}
	if resp.Succeeded {
		return true, w.t.ID, nil
	}
	return false, "", w.failed(resp, 0)
}

// Tournament implements sessions.Store.
func (s *Store) Tournament(ctx context.Context, id string) (*sessions.Tournament, error) {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n == 0 {
		return nil, fmt.Errorf("tournament %q: %w", id, sessions.ErrNotFound)
	}
	return s.tournament(ctx, n)
}

func (s *Store) tournament(ctx context.Context, n uint64) (*sessions.Tournament, error) {
	resp, err := s.cli.Get(ctx, s.tourKey(n))
	if err != nil {
		return nil, fmt.Errorf("etcdstore: reading tournament %d: %w", n, err)
	}
	if len(resp.Kvs) == 0 {
		return nil, fmt.Errorf("tournament %d: %w", n, sessions.ErrNotFound)
	}
	t, err := decodeTournament(resp.Kvs[0].Value)
	if err != nil {
		return nil, s.damage(fmt.Sprintf("tournament %d", n), err)
	}
	return t, nil
}

// indexed reads the tournaments of an index's keys (each ending in an id
// of 16 digits after prefix p), in their order, at most limit (0: all)
// of those keep accepts. A tournament that does not decode is skipped and
// its error returned with the others.
func (s *Store) indexed(ctx context.Context, p string, limit int, keep func(*sessions.Tournament) bool) ([]*sessions.Tournament, error) {
	resp, err := s.cli.Get(ctx, p, clientv3.WithPrefix(), clientv3.WithKeysOnly(), clientv3.WithSort(clientv3.SortByKey, clientv3.SortDescend))
	if err != nil {
		return nil, fmt.Errorf("etcdstore: reading tournaments: %w", err)
	}
	var out []*sessions.Tournament
	var bad []error
	for _, kv := range resp.Kvs {
		if limit > 0 && len(out) >= limit {
			break
		}
		n, err := strconv.ParseUint(string(kv.Key[len(p):]), 10, 64)
		if err != nil {
			bad = append(bad, s.damage("tournament index key "+strconv.Quote(string(kv.Key)), err))
			continue
		}
		t, err := s.tournament(ctx, n)
		switch {
		case errors.Is(err, sessions.ErrDamaged):
			bad = append(bad, err)
		case errors.Is(err, sessions.ErrNotFound):
			bad = append(bad, s.damage(fmt.Sprintf("tournament %d in the index", n), errors.New("missing")))
		case err != nil:
			return nil, err
		case keep(t):
			out = append(out, t)
		}
	}
	return out, errors.Join(bad...)
}

// ActiveTournaments implements sessions.Store: newest first, through the
// index of active ones. A tournament that does not decode is skipped; the
// others are returned with an error wrapping sessions.ErrDamaged.
func (s *Store) ActiveTournaments(ctx context.Context) ([]*sessions.Tournament, error) {
	return s.indexed(ctx, s.activePrefix(), 0, func(t *sessions.Tournament) bool { return t.Status.Active() })
}

// TournamentsAt implements sessions.Store: newest first, through the index
// by channel.
func (s *Store) TournamentsAt(ctx context.Context, key sessions.Key, limit int) ([]*sessions.Tournament, error) {
	p, err := s.tourChannelPrefix(key)
	if err != nil {
		return nil, err
	}
	out, err := s.indexed(ctx, p, limit, func(*sessions.Tournament) bool { return true })
	if err != nil {
		return nil, err
	}
	return out, nil
}
