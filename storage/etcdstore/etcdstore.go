// Package etcdstore keeps the bot's data in etcd, so that several bot
// processes share one store. Store implements sessions.Store.
//
// The layout mirrors the bbolt store's schema 2, under a key prefix
// (default /boardgamebot/):
//
//	h/<session>                  a live session's head: the record without its actions
//	m/<session> 0 <chunk>        its actions, 32 to a chunk (a move rewrites the last one)
//	d/<due> 0 <session>          the live sessions by when their clock is due
//	lu/<platform 0 user> 0 <session>   the live sessions a user holds a seat in
//	g/<id>                       a finished game (ids from meta/next-game)
//	u/<platform 0 user> 0 <id>   the finished games of a user
//	c/<session> 0 <id>           the finished games of a channel
//	r/<platform 0 user 0 game 0 period>          a standing
//	l/<platform 0 game 0 period> 0 <inverted rating> 0 <user>   the ladder
//	n/<platform 0 lower-case name>               a user by name
//	s/<platform 0 request id>    an applied request id, with a lease (a day)
//	w/<random id>                a write's marker, with a lease (an hour: outcome.go)
//	t/<id>                       a tournament (ids from meta/next-tournament)
//	ta/<id>                      the tournaments in sign-up or running
//	tc/<platform 0 channel> 0 <id>               the tournaments of a channel
//	to/<platform 0 channel>      the id of the channel's active tournament (at most one)
//	rh/<platform 0 user 0 game> 0 <ended> 0 <id>  a player's rating history entry
//	cm/<platform 0 user 0 game 0 period> 0 <community>  a community ladder a player is on: the rating of their row
//	cl/<platform 0 community 0 game 0 period> 0 <inverted rating> 0 <user>  a community's ladder
//	meta/rating-log              set once the rating history and community ladders are built
//
// where <session> is platform 0 channel 0 thread, numbers are zero-padded
// decimals and 0 is a zero byte. Values are JSON with a version ({"v":1,...}).
//
// Every sessions.Change is one etcd transaction, whose outcome is known
// before Commit answers, even when etcd's answer is lost (outcome.go). It
// compares the session head's revision with the one this Store loaded or
// last committed: when another process changed the session in between, the
// transaction fails and Commit returns an error wrapping
// sessions.ErrConflict (the Service then loads the session again and
// re-runs the request on it). A tournament written with the change
// (Change.Tournament) adds a compare on the tournament's revision: when
// another process wrote it since its Rev was checked, the whole
// transaction fails with ErrConflict too. Before it uses a session it
// holds in memory, the Service asks Changed (a read of the head's
// revision), so that it sees what other processes did.
//
// Clocks: one process at a time runs them (Lead: an etcd election on a
// lease of LeaderTTL); its Tick reads the due index (DueBefore), so that
// it fires the deadlines of games started or moved in other processes.
// The auto-move is committed like any move, comparing the head's
// revision: a deadline is claimed by that one transaction, and fires
// once even when two processes ran the clock at the same moment.
package etcdstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardgamebot/bot/sessions"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// DefaultPrefix is the key prefix when Options.Prefix is empty.
const DefaultPrefix = "/boardgamebot/"

// chunk is how many actions one move-log key holds.
const chunk = 32

// requestTTL is how long an applied request id is kept at least.
const requestTTL = 24 * time.Hour

// Options tune New.
type Options struct {
	// Prefix is put before every key; DefaultPrefix when empty.
	Prefix string
	// Log receives damaged records (once per key), and the writes whose
	// answer etcd lost; nil discards.
	Log *slog.Logger
	// Community names the community of a finished game of an older bot
	// when Open builds the rating history and community ladders of a
	// store written before them (see storage.Options.Community).
	Community func(sessions.Key) string
	// Wait is how long the store waits for etcd (0: DefaultWait): for the
	// answers to the requests of one change (the client waits for a
	// member as long as it is let), and then, when the change's answer
	// was lost, for finding out whether it applied; only then does it
	// fail with an error wrapping sessions.ErrUnknownOutcome.
	Wait time.Duration
}

// Store is a sessions.Store on etcd.
type Store struct {
	cli    *clientv3.Client
	own    bool // Close closes cli
	prefix string
	log    *slog.Logger
	legacy func(sessions.Key) string // Options.Community

	wait time.Duration

	mu       sync.Mutex
	known    map[sessions.Key]seen // what this Store last saw of each live session
	requests leaseCache            // the lease of request ids
	markers  leaseCache            // the lease of writes' markers
}

// seen is what a Store knows of a live session's stored state: the head's
// revision, how many actions are stored, its due-index key, and the ids
// of its seats' users, with whether this Store wrote their entries of the
// index by user (indexed: a session loaded from an older store may lack
// them; its next commit writes them).
type seen struct {
	rev     int64
	n       int
	due     string
	users   []string
	indexed bool
}

// seatIDs returns the ids of the users holding r's seats, each once.
func seatIDs(r *sessions.Record) []string {
	var ids []string
	for _, u := range r.Seats {
		if u.ID != "" && !slices.Contains(ids, u.ID) {
			ids = append(ids, u.ID)
		}
	}
	return ids
}

// New returns a Store on the client cli (which the caller closes).
func New(cli *clientv3.Client, o Options) *Store {
	if o.Prefix == "" {
		o.Prefix = DefaultPrefix
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Wait <= 0 {
		o.Wait = DefaultWait
	}
	return &Store{cli: cli, prefix: o.Prefix, log: o.Log, legacy: o.Community, wait: o.Wait, known: map[sessions.Key]seen{},
		requests: leaseCache{ttl: requestTTL, reuse: time.Hour}, markers: leaseCache{ttl: markerTTL, reuse: markerReuse}}
}

// Close closes the client when the Store made it (Open).
func (s *Store) Close() error {
	if s.own {
		return s.cli.Close()
	}
	return nil
}

// head is the stored head of a live session.
type head struct {
	V        int             `json:"v"`
	N        int             `json:"n"`
	Due      time.Time       `json:"due,omitzero"`
	Computer bool            `json:"computer,omitempty"`
	Rec      json.RawMessage `json:"rec"`
}

type standingRecord struct {
	V int `json:"v"`
	sessions.Standing
}

type seenRecord struct {
	V  int   `json:"v"`
	At int64 `json:"at"`
}

func sessionKey(k sessions.Key) string { return k.Platform + "\x00" + k.Channel + "\x00" + k.Thread }

func (s *Store) headKey(k sessions.Key) string  { return s.prefix + "h/" + sessionKey(k) }
func (s *Store) movesKey(k sessions.Key) string { return s.prefix + "m/" + sessionKey(k) + "\x00" }
func (s *Store) chunkKey(k sessions.Key, i int) string {
	return fmt.Sprintf("%s%06d", s.movesKey(k), i)
}
func (s *Store) dueKey(k sessions.Key, due time.Time) string {
	if due.IsZero() {
		return ""
	}
	return fmt.Sprintf("%sd/%020d\x00%s", s.prefix, due.UnixNano(), sessionKey(k))
}
func (s *Store) gameKey(id uint64) string { return fmt.Sprintf("%sg/%016d", s.prefix, id) }
func (s *Store) nextKey() string          { return s.prefix + "meta/next-game" }
func (s *Store) liveUserKey(platform, user string, k sessions.Key) string {
	return s.liveUserPrefix(platform, user) + sessionKey(k)
}
func (s *Store) liveUserPrefix(platform, user string) string {
	return s.prefix + "lu/" + platform + "\x00" + user + "\x00"
}
func (s *Store) userPrefix(platform, user string) string {
	return s.prefix + "u/" + platform + "\x00" + user + "\x00"
}
func (s *Store) channelPrefix(k sessions.Key) string { return s.prefix + "c/" + sessionKey(k) + "\x00" }
func (s *Store) ratingKey(platform, user, game, period string) string {
	return s.prefix + "r/" + platform + "\x00" + user + "\x00" + game + "\x00" + period
}
func (s *Store) ladderPrefix(platform, game, period string) string {
	return s.prefix + "l/" + platform + "\x00" + game + "\x00" + period + "\x00"
}
func (s *Store) ladderKey(st sessions.Standing) string {
	return s.ladderPrefix(st.Platform, st.Game, st.Period) + inverted(st.Rating) + "\x00" + st.User.ID
}
func (s *Store) nameKey(platform, name string) string {
	return s.prefix + "n/" + platform + "\x00" + strings.ToLower(strings.TrimPrefix(name, "@"))
}
func (s *Store) seenKey(platform, id string) string { return s.prefix + "s/" + platform + "\x00" + id }

// inverted orders ratings from the highest down as text.
func inverted(rating int) string {
	r := max(min(int64(rating), math.MaxInt32), math.MinInt32+1)
	return fmt.Sprintf("%08x", uint32(int64(math.MaxInt32)-r))
}

func damaged(what string, err error) error {
	return fmt.Errorf("etcdstore: %s: %w: %v", what, sessions.ErrDamaged, err)
}

func (s *Store) damage(what string, err error) error {
	s.log.Error("damaged record in etcd", "record", what, "err", err)
	return damaged(what, err)
}

// Load implements sessions.Store. The head and its move log are read at
// one revision.
func (s *Store) Load(ctx context.Context, key sessions.Key) (*sessions.Record, error) {
	ctx, cancel := s.bounded(ctx)
	defer cancel()
	resp, err := s.cli.Txn(ctx).Then(
		clientv3.OpGet(s.headKey(key)),
		clientv3.OpGet(s.movesKey(key), clientv3.WithPrefix(), clientv3.WithSort(clientv3.SortByKey, clientv3.SortAscend)),
	).Commit()
	if err != nil {
		return nil, fmt.Errorf("etcdstore: loading %s: %w", key, err)
	}
	hs := resp.Responses[0].GetResponseRange().Kvs
	if len(hs) == 0 {
		s.mu.Lock()
		delete(s.known, key)
		s.mu.Unlock()
		return nil, fmt.Errorf("session %s: %w", key, sessions.ErrNotFound)
	}
	var h head
	if err := json.Unmarshal(hs[0].Value, &h); err != nil {
		return nil, s.damage("session "+key.String(), err)
	}
	rec, err := decodeRecord(h.Rec)
	if err != nil {
		return nil, s.damage("session "+key.String(), err)
	}
	rec.Actions = nil
	for _, kv := range resp.Responses[1].GetResponseRange().Kvs {
		var as []sessions.Action
		if err := json.Unmarshal(kv.Value, &as); err != nil {
			return nil, s.damage("moves of "+key.String(), err)
		}
		rec.Actions = append(rec.Actions, as...)
	}
	if len(rec.Actions) != h.N {
		return nil, s.damage("moves of "+key.String(), fmt.Errorf("%d actions, the head says %d", len(rec.Actions), h.N))
	}
	s.mu.Lock()
	s.known[key] = seen{rev: hs[0].ModRevision, n: h.N, due: s.dueKey(key, h.Due), users: seatIDs(rec)}
	s.mu.Unlock()
	return rec, nil
}

// Changed implements sessions.SharedStore: it compares the head's
// revision with the one this Store last saw.
func (s *Store) Changed(ctx context.Context, key sessions.Key) (bool, error) {
	ctx, cancel := s.bounded(ctx)
	defer cancel()
	resp, err := s.cli.Get(ctx, s.headKey(key), clientv3.WithKeysOnly())
	if err != nil {
		return false, fmt.Errorf("etcdstore: reading the revision of %s: %w", key, err)
	}
	s.mu.Lock()
	was, ok := s.known[key]
	s.mu.Unlock()
	if len(resp.Kvs) == 0 {
		return ok, nil
	}
	return !ok || resp.Kvs[0].ModRevision != was.rev, nil
}

// DueBefore implements sessions.SharedStore: a range read of the due
// index up to t.
func (s *Store) DueBefore(ctx context.Context, t time.Time) ([]sessions.LiveEntry, error) {
	ctx, cancel := s.bounded(ctx)
	defer cancel()
	p := s.prefix + "d/"
	end := fmt.Sprintf("%s%020d\x01", p, t.UnixNano())
	resp, err := s.cli.Get(ctx, p, clientv3.WithRange(end), clientv3.WithKeysOnly())
	if err != nil {
		return nil, fmt.Errorf("etcdstore: reading the due index: %w", err)
	}
	var out []sessions.LiveEntry
	for _, kv := range resp.Kvs {
		k := string(kv.Key[len(p):])
		when, rest, ok := strings.Cut(k, "\x00")
		parts := strings.Split(rest, "\x00")
		n, err := strconv.ParseInt(when, 10, 64)
		if !ok || err != nil || len(parts) != 3 {
			s.log.Error("damaged key in the due index", "key", strconv.Quote(string(kv.Key)))
			continue
		}
		out = append(out, sessions.LiveEntry{Key: sessions.Key{Platform: parts[0], Channel: parts[1], Thread: parts[2]}, Due: time.Unix(0, n).UTC()})
	}
	return out, nil
}

func decodeRecord(b []byte) (*sessions.Record, error) {
	var r sessions.Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	if r.V < sessions.OldestRecordVersion || r.V > sessions.RecordVersion {
		return nil, fmt.Errorf("record version %d", r.V)
	}
	return &r, nil
}

// Commit implements sessions.Store.
func (s *Store) Commit(ctx context.Context, c *sessions.Change) error {
	s.mu.Lock()
	was, ok := s.known[c.Key]
	s.mu.Unlock()
	// Only the game and tournament counters and the standings can race
	// with other sessions' commits: then the transaction runs again; so
	// does one whose answer was lost and that did not apply.
	for i := range 16 {
		if err := ctx.Err(); err != nil && i > 0 {
			return fmt.Errorf("etcdstore: committing %s: %w", c.Key, err)
		}
		done, rev, res, err := s.try(ctx, c, was, ok)
		if errors.Is(err, sessions.ErrUnknownOutcome) {
			s.mu.Lock()
			delete(s.known, c.Key) // load it again: it may have changed
			s.mu.Unlock()
		}
		if err != nil {
			return err
		}
		if !done {
			continue
		}
		s.mu.Lock()
		if c.Live != nil {
			s.known[c.Key] = seen{rev: rev, n: len(c.Live.Actions), due: s.dueKey(c.Key, c.Live.Due()), users: seatIDs(c.Live), indexed: true}
		} else {
			delete(s.known, c.Key)
		}
		s.mu.Unlock()
		if c.Finished != nil {
			c.Finished.ID = res.id
			if c.Rate != nil {
				c.Finished.Ratings = res.ratings
			}
		}
		if res.tour != nil {
			*c.Tournament = *res.tour
		}
		s.moveRows(ctx, res.later)
		return nil
	}
	return fmt.Errorf("etcdstore: committing %s: too much contention on the game counter or ratings", c.Key)
}

type result struct {
	id      string
	ratings []sessions.RatingChange
	tour    *sessions.Tournament // the tournament as written
	later   []string             // community ladder rows to move after the transaction (communityBudget)
}

// try runs one transaction of c. It reports done=false when only the game
// or tournament counter or a standing changed under it, or when its
// answer was lost and it did not apply (run it again). A stale
// Change.Tournament fails with an error wrapping ErrConflict that names
// the tournament (the session stays known: it did not change).
func (s *Store) try(ctx context.Context, c *sessions.Change, was seen, known bool) (done bool, rev int64, res result, err error) {
	ctx, cancel := s.bounded(ctx)
	defer cancel()
	hk := s.headKey(c.Key)
	var cmps []clientv3.Cmp
	if known {
		cmps = append(cmps, clientv3.Compare(clientv3.ModRevision(hk), "=", was.rev))
	} else {
		cmps = append(cmps, clientv3.Compare(clientv3.CreateRevision(hk), "=", 0))
	}
	var ops []clientv3.Op
	if c.Request != "" {
		lease, err := s.lease(ctx, &s.requests)
		if err != nil {
			return false, 0, res, err
		}
		sk := s.seenKey(c.Key.Platform, c.Request)
		cmps = append(cmps, clientv3.Compare(clientv3.CreateRevision(sk), "=", 0))
		v, _ := json.Marshal(seenRecord{V: 1, At: c.At.UnixNano()})
		ops = append(ops, clientv3.OpPut(sk, string(v), clientv3.WithLease(lease)))
	}
	mlease, err := s.lease(ctx, &s.markers)
	if err != nil {
		return false, 0, res, err
	}
	mk := s.newMarker()
	cmps, ops = marked(mk, mlease, cmps, ops)
	if was.due != "" && (c.Live == nil || was.due != s.dueKey(c.Key, c.Live.Due())) {
		ops = append(ops, clientv3.OpDelete(was.due))
	}
	if c.Live != nil {
		o, err := s.liveOps(c, was)
		if err != nil {
			return false, 0, res, err
		}
		ops = append(ops, o...)
	} else {
		ops = append(ops, clientv3.OpDelete(hk), clientv3.OpDelete(s.movesKey(c.Key), clientv3.WithPrefix()))
		for _, id := range was.users {
			ops = append(ops, clientv3.OpDelete(s.liveUserKey(c.Key.Platform, id, c.Key)))
		}
	}
	if c.Finished != nil {
		fc, fo, r, err := s.finishOps(ctx, c)
		if err != nil {
			return false, 0, res, err
		}
		cmps, ops, res = append(cmps, fc...), append(ops, fo...), r
	}
	elses := []clientv3.Op{
		clientv3.OpGet(hk, clientv3.WithKeysOnly()),
		clientv3.OpGet(s.seenKey(c.Key.Platform, c.Request), clientv3.WithKeysOnly()),
	}
	var tw *tourWrite
	if c.Tournament != nil {
		// Last: it takes the finished game's id.
		if tw, err = s.tourOps(ctx, c.Tournament, c.Finished, res.id); err != nil {
			return false, 0, res, err
		}
		cmps, ops, res.tour = append(cmps, tw.cmps...), append(ops, tw.ops...), tw.t
		elses = append(elses, tw.elses()...)
	}
	resp, err := s.cli.Txn(ctx).If(cmps...).Then(ops...).Else(elses...).Commit()
	if err != nil {
		applied, rev, err := s.lost(ctx, "committing "+c.Key.String(), err, mk, mlease)
		return applied, rev, res, err
	}
	if resp.Succeeded {
		return true, resp.Header.Revision, res, nil
	}
	hs := resp.Responses[0].GetResponseRange().Kvs
	if known && (len(hs) == 0 || hs[0].ModRevision != was.rev) || !known && len(hs) > 0 {
		s.mu.Lock()
		delete(s.known, c.Key)
		s.mu.Unlock()
		return false, 0, res, fmt.Errorf("etcdstore: session %s changed in another process: %w", c.Key, sessions.ErrConflict)
	}
	if c.Request != "" && len(resp.Responses[1].GetResponseRange().Kvs) > 0 {
		return false, 0, res, fmt.Errorf("request %s: %w", c.Request, sessions.ErrDuplicate)
	}
	if tw != nil {
		// The session is as this Store knew it: it stays known.
		if err := tw.failed(resp, 2); err != nil {
			return false, 0, res, err
		}
	}
	return false, 0, res, nil
}

// liveOps writes a live session's head, its due index, the chunks of its
// move log that changed since was, and its entries of the index by user
// when its seats' users changed (or this Store has not written them).
func (s *Store) liveOps(c *sessions.Change, was seen) ([]clientv3.Op, error) {
	r := c.Live
	bare := *r
	bare.Actions = nil
	rb, err := json.Marshal(&bare)
	if err != nil {
		return nil, err
	}
	e := r.Entry()
	hb, err := json.Marshal(head{V: 1, N: len(r.Actions), Due: e.Due, Computer: e.Computer, Rec: rb})
	if err != nil {
		return nil, err
	}
	ops := []clientv3.Op{clientv3.OpPut(s.headKey(c.Key), string(hb))}
	if users := seatIDs(r); !was.indexed || !slices.Equal(users, was.users) {
		for _, id := range was.users {
			if !slices.Contains(users, id) {
				ops = append(ops, clientv3.OpDelete(s.liveUserKey(c.Key.Platform, id, c.Key)))
			}
		}
		for _, id := range users {
			ops = append(ops, clientv3.OpPut(s.liveUserKey(c.Key.Platform, id, c.Key), ""))
		}
	}
	if dk := s.dueKey(c.Key, e.Due); dk != "" && dk != was.due {
		ops = append(ops, clientv3.OpPut(dk, ""))
	}
	n := len(r.Actions)
	from := min(was.n, n) / chunk // the first chunk that may differ
	last := (n + chunk - 1) / chunk
	for i := from; i < last; i++ {
		v, err := json.Marshal(r.Actions[i*chunk : min(n, (i+1)*chunk)])
		if err != nil {
			return nil, err
		}
		ops = append(ops, clientv3.OpPut(s.chunkKey(c.Key, i), string(v)))
	}
	if n < was.n {
		ops = append(ops, clientv3.OpDelete(s.chunkKey(c.Key, last), clientv3.WithRange(clientv3.GetPrefixRangeEnd(s.movesKey(c.Key)))))
	}
	return ops, nil
}

// finishOps stores a finished game, its indexes, names and ratings. It
// reads the game counter and the standings: the compares make sure they
// did not change before the transaction.
func (s *Store) finishOps(ctx context.Context, c *sessions.Change) ([]clientv3.Cmp, []clientv3.Op, result, error) {
	var res result
	nk := s.nextKey()
	r, err := s.readFinish(ctx, c, nk)
	if err != nil {
		return nil, nil, res, err
	}
	id := uint64(1)
	if r.vals[0].v != nil {
		n, err := strconv.ParseUint(string(r.vals[0].v), 10, 64)
		if err != nil {
			return nil, nil, res, s.damage("the game counter", err)
		}
		id = n + 1
	}
	res.id = strconv.FormatUint(id, 10)
	ops := []clientv3.Op{clientv3.OpPut(nk, res.id)}
	rec := c.Finished.Clone()
	rec.ID = res.id
	if c.Rate != nil {
		o, err := s.ratingOps(c.Rate, r, rec, id, &res)
		if err != nil {
			return nil, nil, res, err
		}
		ops = append(ops, o...)
	}
	o, err := s.gameOps(c.Key, rec, id)
	if err != nil {
		return nil, nil, res, err
	}
	return r.cmps, append(ops, o...), res, nil
}

// finishRead is what finishOps read before it writes: the game counter
// and the players' standings (vals, in the order of keys), the players'
// community ladders (communities, in the order of their prefixes), and
// the comparisons that hold them unchanged until the write.
type finishRead struct {
	keys        []string
	vals        []gotValue
	communities [][]membership
	cmps        []clientv3.Cmp
}

type gotValue struct {
	v   []byte
	rev int64
}

// readFinish reads, in one transaction, the game counter nk and, for a
// rated game, the players' standings and community ladders.
func (s *Store) readFinish(ctx context.Context, c *sessions.Change, nk string) (finishRead, error) {
	r := finishRead{keys: []string{nk}}
	if c.Rate != nil {
		for _, u := range c.Rate.Players {
			for _, period := range []string{sessions.AllTime, c.Rate.Month} {
				r.keys = append(r.keys, s.ratingKey(c.Rate.Platform, u.ID, c.Rate.Game, period))
			}
		}
	}
	gets := make([]clientv3.Op, len(r.keys))
	for i, k := range r.keys {
		gets[i] = clientv3.OpGet(k)
	}
	var members []string // the prefixes of the players' community ladders, as the standings
	if c.Rate != nil {
		for _, u := range c.Rate.Players {
			for _, period := range []string{sessions.AllTime, c.Rate.Month} {
				p := s.memberPrefix(c.Rate.Platform, u.ID, c.Rate.Game, period)
				members = append(members, p)
				gets = append(gets, clientv3.OpGet(p, clientv3.WithPrefix()))
			}
		}
	}
	resp, err := s.cli.Txn(ctx).Then(gets...).Commit()
	if err != nil {
		return r, fmt.Errorf("etcdstore: reading the game counter and ratings: %w", err)
	}
	r.vals = make([]gotValue, len(r.keys))
	for i, rr := range resp.Responses[:len(r.keys)] {
		if kvs := rr.GetResponseRange().Kvs; len(kvs) > 0 {
			r.vals[i] = gotValue{kvs[0].Value, kvs[0].ModRevision}
		}
		r.cmps = append(r.cmps, clientv3.Compare(clientv3.ModRevision(r.keys[i]), "=", r.vals[i].rev))
	}
	r.communities = make([][]membership, len(members))
	for i, p := range members {
		for _, kv := range resp.Responses[len(r.keys)+i].GetResponseRange().Kvs {
			r.communities[i] = append(r.communities[i], membership{community: string(kv.Key[len(p):]), rating: string(kv.Value)})
		}
		// No player joined another community ladder since the read.
		r.cmps = append(r.cmps, clientv3.Compare(clientv3.ModRevision(p), "<", resp.Header.Revision+1).WithPrefix())
	}
	return r, nil
}

// ratingOps are the writes of a rated game's end: the players' new
// standings, ladders and community ladders, and their rating history;
// the changes go into rec and res.
func (s *Store) ratingOps(r *sessions.RateRequest, got finishRead, rec *sessions.Record, id uint64, res *result) ([]clientv3.Op, error) {
	var ops []clientv3.Op
	var cur [2][2]sessions.Standing
	var had [2][2]bool
	i := 1
	for seat, u := range r.Players {
		for p, period := range []string{sessions.AllTime, r.Month} {
			cur[seat][p] = sessions.NewStanding(r.Platform, u, r.Game, period)
			if v := got.vals[i].v; v != nil {
				var sr standingRecord
				if err := json.Unmarshal(v, &sr); err != nil {
					return nil, s.damage(got.keys[i], err)
				}
				cur[seat][p], had[seat][p] = sr.Standing, true
			}
			i++
		}
	}
	next, changes := sessions.ApplyRating(r, cur)
	res.ratings = changes
	rec.Ratings = changes
	budget := communityBudget
	for seat := range 2 {
		if !r.Rated && r.Penalty[seat] == 0 {
			continue // an unrated game leaves the winner of an abandoned game as they were
		}
		for p := range 2 {
			st := next[seat][p]
			v, err := json.Marshal(standingRecord{V: 1, Standing: st})
			if err != nil {
				return nil, err
			}
			if had[seat][p] && s.ladderKey(cur[seat][p]) != s.ladderKey(st) {
				ops = append(ops, clientv3.OpDelete(s.ladderKey(cur[seat][p])))
			}
			ops = append(ops, clientv3.OpPut(s.ratingKey(st.Platform, st.User.ID, st.Game, st.Period), string(v)),
				clientv3.OpPut(s.ladderKey(st), string(v)))
			o, later := s.communityOps(r, st, v, got.communities[2*seat+p], &budget)
			ops, res.later = append(ops, o...), append(res.later, later...)
		}
	}
	for _, g := range sessions.RatedGamesOf(rec) {
		o, err := s.ratedOp(&g, id)
		if err != nil {
			return nil, err
		}
		ops = append(ops, o)
	}
	return ops, nil
}

// gameOps are the writes of the finished game rec under id: the record,
// its players' names and the history's indexes by channel and by user.
func (s *Store) gameOps(key sessions.Key, rec *sessions.Record, id uint64) ([]clientv3.Op, error) {
	var ops []clientv3.Op
	names := map[string]bool{} // a transaction puts a key once
	for _, u := range rec.Seats {
		k := s.nameKey(key.Platform, u.Name)
		if u.ID == "" || u.Computer || u.Name == "" || names[k] {
			continue
		}
		names[k] = true
		v, err := json.Marshal(u)
		if err != nil {
			return nil, err
		}
		ops = append(ops, clientv3.OpPut(k, string(v)))
	}
	v, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	idk := fmt.Sprintf("%016d", id)
	ops = append(ops, clientv3.OpPut(s.gameKey(id), string(v)), clientv3.OpPut(s.channelPrefix(key)+idk, ""))
	users := map[string]bool{}
	for _, u := range rec.Seats {
		if u.ID != "" && !users[u.ID] {
			users[u.ID] = true
			ops = append(ops, clientv3.OpPut(s.userPrefix(key.Platform, u.ID)+idk, ""))
		}
	}
	return ops, nil
}

// Seen implements sessions.Store.
func (s *Store) Seen(ctx context.Context, platform, id string) (bool, error) {
	ctx, cancel := s.bounded(ctx)
	defer cancel()
	resp, err := s.cli.Get(ctx, s.seenKey(platform, id), clientv3.WithCountOnly())
	if err != nil {
		return false, fmt.Errorf("etcdstore: reading request %s: %w", id, err)
	}
	return resp.Count > 0, nil
}

// Forget implements sessions.Store. The ids' lease drops them a day
// after they were applied anyway.
func (s *Store) Forget(ctx context.Context, before time.Time) error {
	resp, err := s.cli.Get(ctx, s.prefix+"s/", clientv3.WithPrefix())
	if err != nil {
		return fmt.Errorf("etcdstore: reading request ids: %w", err)
	}
	for _, kv := range resp.Kvs {
		var r seenRecord
		if err := json.Unmarshal(kv.Value, &r); err == nil && r.At >= before.UnixNano() {
			continue
		}
		if _, err := s.cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(string(kv.Key)), "=", kv.ModRevision)).
			Then(clientv3.OpDelete(string(kv.Key))).Commit(); err != nil {
			return fmt.Errorf("etcdstore: forgetting request ids: %w", err)
		}
	}
	return nil
}

// Standings implements sessions.Store.
func (s *Store) Standings(ctx context.Context, platform, userID, game string) ([]sessions.Standing, error) {
	p := s.prefix + "r/" + platform + "\x00" + userID + "\x00"
	if game != "" {
		p += game + "\x00"
	}
	resp, err := s.cli.Get(ctx, p, clientv3.WithPrefix(), clientv3.WithSort(clientv3.SortByKey, clientv3.SortAscend))
	if err != nil {
		return nil, fmt.Errorf("etcdstore: reading standings: %w", err)
	}
	var out []sessions.Standing
	for _, kv := range resp.Kvs {
		var sr standingRecord
		if err := json.Unmarshal(kv.Value, &sr); err != nil {
			return nil, s.damage("standing "+string(kv.Key), err)
		}
		out = append(out, sr.Standing)
	}
	return out, nil
}

// Top implements sessions.Store: a range read of the ladder's first
// rows, a count of its players and one of those rated higher than q.User.
func (s *Store) Top(ctx context.Context, q sessions.TopQuery) (sessions.Ladder, error) {
	p := s.ladderPrefix(q.Platform, q.Game, q.Period)
	if q.Community != "" {
		p = s.cladderPrefix(q.Platform, q.Community, q.Game, q.Period)
	}
	end := clientv3.GetPrefixRangeEnd(p)
	ops := []clientv3.Op{
		clientv3.OpGet(p, clientv3.WithRange(end), clientv3.WithLimit(int64(max(q.Limit, 0))), clientv3.WithSort(clientv3.SortByKey, clientv3.SortAscend)),
		clientv3.OpGet(p, clientv3.WithRange(end), clientv3.WithCountOnly()),
	}
	if q.User != "" {
		ops = append(ops, clientv3.OpGet(s.ratingKey(q.Platform, q.User, q.Game, q.Period)))
		if q.Community != "" {
			ops = append(ops, clientv3.OpGet(s.memberPrefix(q.Platform, q.User, q.Game, q.Period)+q.Community, clientv3.WithCountOnly()))
		}
	}
	resp, err := s.cli.Txn(ctx).Then(ops...).Commit()
	if err != nil {
		return sessions.Ladder{}, fmt.Errorf("etcdstore: reading a ladder: %w", err)
	}
	var l sessions.Ladder
	for _, kv := range resp.Responses[0].GetResponseRange().Kvs {
		var sr standingRecord
		if err := json.Unmarshal(kv.Value, &sr); err != nil {
			return sessions.Ladder{}, s.damage("ladder "+string(kv.Key), err)
		}
		l.Rows = append(l.Rows, sr.Standing)
	}
	l.Players = int(resp.Responses[1].GetResponseRange().Count)
	if q.User == "" {
		return l, nil
	}
	kvs := resp.Responses[2].GetResponseRange().Kvs
	if len(kvs) == 0 || q.Community != "" && resp.Responses[3].GetResponseRange().Count == 0 {
		return l, nil
	}
	var sr standingRecord
	if err := json.Unmarshal(kvs[0].Value, &sr); err != nil {
		return sessions.Ladder{}, s.damage("standing of "+q.User, err)
	}
	above, err := s.cli.Get(ctx, p, clientv3.WithRange(p+inverted(sr.Rating)), clientv3.WithCountOnly(), clientv3.WithRev(resp.Header.Revision))
	if err != nil {
		return sessions.Ladder{}, fmt.Errorf("etcdstore: reading a ladder: %w", err)
	}
	me := sr.Standing
	l.Me, l.Place = &me, 1+int(above.Count)
	return l, nil
}

// FindUser implements sessions.Store.
func (s *Store) FindUser(ctx context.Context, platform, name string) (sessions.User, error) {
	resp, err := s.cli.Get(ctx, s.nameKey(platform, name))
	if err != nil {
		return sessions.User{}, fmt.Errorf("etcdstore: finding %q: %w", name, err)
	}
	if len(resp.Kvs) == 0 {
		return sessions.User{}, fmt.Errorf("user %q: %w", name, sessions.ErrNotFound)
	}
	var u sessions.User
	if err := json.Unmarshal(resp.Kvs[0].Value, &u); err != nil {
		return sessions.User{}, s.damage("user "+name, err)
	}
	return u, nil
}

// heads returns every live session's head.
func (s *Store) heads(ctx context.Context) ([]sessions.Key, []head, error) {
	p := s.prefix + "h/"
	resp, err := s.cli.Get(ctx, p, clientv3.WithPrefix(), clientv3.WithSort(clientv3.SortByKey, clientv3.SortAscend))
	if err != nil {
		return nil, nil, fmt.Errorf("etcdstore: reading live sessions: %w", err)
	}
	var keys []sessions.Key
	var heads []head
	var bad error
	for _, kv := range resp.Kvs {
		parts := strings.Split(string(kv.Key[len(p):]), "\x00")
		var h head
		if len(parts) != 3 {
			bad = s.damage("session key "+strconv.Quote(string(kv.Key)), errors.New("not platform, channel and thread"))
			continue
		}
		if err := json.Unmarshal(kv.Value, &h); err != nil {
			bad = s.damage("session "+strings.Join(parts, ":"), err)
			continue
		}
		keys = append(keys, sessions.Key{Platform: parts[0], Channel: parts[1], Thread: parts[2]})
		heads = append(heads, h)
	}
	return keys, heads, bad
}

// LiveOf implements sessions.Store: one read of the index by user, then
// the heads it names (no move log), 64 to a transaction.
func (s *Store) LiveOf(ctx context.Context, platform, userID string) ([]*sessions.Record, error) {
	if userID == "" {
		return nil, nil
	}
	p := s.liveUserPrefix(platform, userID)
	resp, err := s.cli.Get(ctx, p, clientv3.WithPrefix(), clientv3.WithKeysOnly())
	if err != nil {
		return nil, fmt.Errorf("etcdstore: reading the live sessions of %s user %s: %w", platform, userID, err)
	}
	var gets []clientv3.Op
	var bad error
	for _, kv := range resp.Kvs {
		parts := strings.Split(string(kv.Key[len(p):]), "\x00")
		if len(parts) != 3 {
			bad = s.damage("index key "+strconv.Quote(string(kv.Key)), errors.New("not platform, channel and thread"))
			continue
		}
		gets = append(gets, clientv3.OpGet(s.headKey(sessions.Key{Platform: parts[0], Channel: parts[1], Thread: parts[2]})))
	}
	var out []*sessions.Record
	for len(gets) > 0 {
		n := min(len(gets), 64)
		tr, err := s.cli.Txn(ctx).Then(gets[:n]...).Commit()
		if err != nil {
			return nil, fmt.Errorf("etcdstore: reading the live sessions of %s user %s: %w", platform, userID, err)
		}
		gets = gets[n:]
		for _, r := range tr.Responses {
			for _, kv := range r.GetResponseRange().Kvs {
				rec, err := headRecord(kv.Value)
				if err != nil {
					bad = s.damage("session "+strconv.Quote(string(kv.Key)), err)
					continue
				}
				out = append(out, rec)
			}
		}
	}
	return out, bad
}

// headRecord decodes the record of a stored head (without its actions).
func headRecord(v []byte) (*sessions.Record, error) {
	var h head
	if err := json.Unmarshal(v, &h); err != nil {
		return nil, err
	}
	return decodeRecord(h.Rec)
}

// Live implements sessions.Store.
func (s *Store) Live(ctx context.Context) ([]*sessions.Record, error) {
	keys, _, bad := s.heads(ctx)
	var out []*sessions.Record
	for _, k := range keys {
		r, err := s.Load(ctx, k)
		switch {
		case errors.Is(err, sessions.ErrNotFound):
		case errors.Is(err, sessions.ErrDamaged):
			bad = err
		case err != nil:
			return nil, err
		default:
			out = append(out, r)
		}
	}
	return out, bad
}

// LiveIndex implements sessions.Store: it reads the heads' flags and
// decodes no record.
func (s *Store) LiveIndex(ctx context.Context) ([]sessions.LiveEntry, error) {
	keys, heads, bad := s.heads(ctx)
	out := make([]sessions.LiveEntry, len(keys))
	for i, k := range keys {
		out[i] = sessions.LiveEntry{Key: k, Due: heads[i].Due, Computer: heads[i].Computer}
	}
	return out, bad
}

// Finished implements sessions.Store.
func (s *Store) Finished(ctx context.Context, id string) (*sessions.Record, error) {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("game %q: %w", id, sessions.ErrNotFound)
	}
	return s.game(ctx, n)
}

func (s *Store) game(ctx context.Context, n uint64) (*sessions.Record, error) {
	resp, err := s.cli.Get(ctx, s.gameKey(n))
	if err != nil {
		return nil, fmt.Errorf("etcdstore: reading game %d: %w", n, err)
	}
	if len(resp.Kvs) == 0 {
		return nil, fmt.Errorf("game %d: %w", n, sessions.ErrNotFound)
	}
	r, err := decodeRecord(resp.Kvs[0].Value)
	if err != nil {
		return nil, s.damage(fmt.Sprintf("game %d", n), err)
	}
	return r, nil
}

// History implements sessions.Store: the index's newest keys, then their
// games.
func (s *Store) History(ctx context.Context, q sessions.HistoryQuery) ([]*sessions.Record, error) {
	p := s.channelPrefix(q.Key)
	if q.User != "" {
		p = s.userPrefix(q.Platform, q.User)
	}
	opts := []clientv3.OpOption{clientv3.WithPrefix(), clientv3.WithKeysOnly(), clientv3.WithSort(clientv3.SortByKey, clientv3.SortDescend)}
	if q.Limit > 0 && q.Game == "" && q.With == "" { // else the limit applies after the filter
		opts = append(opts, clientv3.WithLimit(int64(q.Limit)))
	}
	var with map[string]bool // the games of q.With, from the index alone
	if q.User != "" && q.With != "" {
		wp := s.userPrefix(q.Platform, q.With)
		resp, err := s.cli.Get(ctx, wp, clientv3.WithPrefix(), clientv3.WithKeysOnly())
		if err != nil {
			return nil, fmt.Errorf("etcdstore: reading history: %w", err)
		}
		with = map[string]bool{}
		for _, kv := range resp.Kvs {
			with[string(kv.Key[len(wp):])] = true
		}
	}
	resp, err := s.cli.Get(ctx, p, opts...)
	if err != nil {
		return nil, fmt.Errorf("etcdstore: reading history: %w", err)
	}
	var out []*sessions.Record
	for _, kv := range resp.Kvs {
		if q.Limit > 0 && len(out) >= q.Limit {
			break
		}
		if with != nil && !with[string(kv.Key[len(p):])] {
			continue
		}
		n, err := strconv.ParseUint(string(kv.Key[len(p):]), 10, 64)
		if err != nil {
			return nil, s.damage("history key "+strconv.Quote(string(kv.Key)), err)
		}
		r, err := s.game(ctx, n)
		if err != nil {
			return nil, err
		}
		if q.Game != "" && r.Game != q.Game {
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

var _ sessions.SharedStore = (*Store)(nil)
