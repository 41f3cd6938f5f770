package etcdstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// The rating history and the community ladders (issue 28): rh/, cm/ and
// cl/ (see the package's doc), as the bbolt store keeps them.

// ratedRecord is a rating history entry as stored, with its version.
type ratedRecord struct {
	V int `json:"v"`
	sessions.RatedGame
}

func (s *Store) ratedPrefix(platform, user, game string) string {
	p := s.prefix + "rh/" + platform + "\x00" + user + "\x00"
	if game != "" {
		p += game + "\x00"
	}
	return p
}

func (s *Store) memberPrefix(platform, user, game, period string) string {
	return s.prefix + "cm/" + platform + "\x00" + user + "\x00" + game + "\x00" + period + "\x00"
}

func (s *Store) cladderPrefix(platform, community, game, period string) string {
	return s.prefix + "cl/" + platform + "\x00" + community + "\x00" + game + "\x00" + period + "\x00"
}

func (s *Store) ratedKey(g *sessions.RatedGame, id uint64) string {
	return fmt.Sprintf("%s%020d\x00%016d", s.ratedPrefix(g.Platform, g.User.ID, g.Game), g.At.UnixNano(), id)
}

func (s *Store) markerKey() string { return s.prefix + "meta/rating-log" }

// goodCommunity reports whether a community id can be a key's part.
func goodCommunity(c string) bool { return c != "" && !strings.ContainsRune(c, 0) }

// ratedOp writes the rating history entry g of the finished game id.
func (s *Store) ratedOp(g *sessions.RatedGame, id uint64) (clientv3.Op, error) {
	v, err := json.Marshal(ratedRecord{V: 1, RatedGame: *g})
	if err != nil {
		return clientv3.Op{}, err
	}
	return clientv3.OpPut(s.ratedKey(g, id), string(v)), nil
}

// membership is a community ladder a player is on, and the rating their
// row on it is indexed at (the value of its cm/ key; empty when not
// known: the row is then only written).
type membership struct {
	community, rating string
}

// communityBudget is how many writes of community ladder rows a game's
// transaction takes (each row moved is 3: the old row's delete, the new
// row, the membership's rating); the rows of a player on more ladders
// than that move right after it (moveRows), so that the transaction
// stays within etcd's --max-txn-ops (128 by default).
const communityBudget = 60

func (s *Store) cladderRow(platform, community, game, period string, rating int, user string) string {
	return s.cladderPrefix(platform, community, game, period) + inverted(rating) + "\x00" + user
}

// communityOps move the row of st (v its stored value) on each community
// ladder of communities (those the player is on) while budget lasts (the
// keys of the others are returned, for moveRows), and put the player on
// the ladder of r's community when the game joins it (RateRequest.Joins)
// and they are not on it yet.
func (s *Store) communityOps(r *sessions.RateRequest, st sessions.Standing, v []byte, communities []membership, budget *int) (ops []clientv3.Op, later []string) {
	joined := !r.Joins() || !goodCommunity(r.Community)
	prefix := s.memberPrefix(st.Platform, st.User.ID, st.Game, st.Period)
	for _, m := range communities {
		joined = joined || m.community == r.Community
		if *budget < 3 {
			later = append(later, prefix+m.community)
			continue
		}
		*budget -= 3
		ops = append(ops, s.rowOps(st, v, m)...)
	}
	if !joined {
		ops = append(ops, s.rowOps(st, v, membership{community: r.Community})...)
	}
	return ops, later
}

// rowOps move the player's row of st on m's ladder from the rating m
// names to st's, and record st's rating in m.
func (s *Store) rowOps(st sessions.Standing, v []byte, m membership) []clientv3.Op {
	var ops []clientv3.Op
	if old, err := strconv.Atoi(m.rating); err == nil && old != st.Rating {
		ops = append(ops, clientv3.OpDelete(s.cladderRow(st.Platform, m.community, st.Game, st.Period, old, st.User.ID)))
	}
	return append(ops, clientv3.OpPut(s.cladderRow(st.Platform, m.community, st.Game, st.Period, st.Rating, st.User.ID), string(v)),
		clientv3.OpPut(s.memberPrefix(st.Platform, st.User.ID, st.Game, st.Period)+m.community, strconv.Itoa(st.Rating)))
}

// moveRows moves the rows a game's transaction left out (communityBudget)
// to the players' standings, each in a transaction of its own that
// compares the membership and the standing it read (another game of the
// player in between moves the row itself; then this one finds it
// done). A failure is logged: the row moves with the player's next game.
func (s *Store) moveRows(ctx context.Context, keys []string) {
	for _, k := range keys {
		p := strings.Split(strings.TrimPrefix(k, s.prefix+"cm/"), "\x00")
		if len(p) != 5 {
			continue
		}
		rk := s.ratingKey(p[0], p[1], p[2], p[3])
		var err error
		for try := 0; try < 8; try++ {
			var resp *clientv3.TxnResponse
			if resp, err = s.cli.Txn(ctx).Then(clientv3.OpGet(k), clientv3.OpGet(rk)).Commit(); err != nil {
				break
			}
			ms, ss := resp.Responses[0].GetResponseRange().Kvs, resp.Responses[1].GetResponseRange().Kvs
			if len(ms) == 0 || len(ss) == 0 {
				break
			}
			var sr standingRecord
			if err = json.Unmarshal(ss[0].Value, &sr); err != nil {
				break
			}
			var r *clientv3.TxnResponse
			r, err = s.cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(k), "=", ms[0].ModRevision),
				clientv3.Compare(clientv3.ModRevision(rk), "=", ss[0].ModRevision)).
				Then(s.rowOps(sr.Standing, ss[0].Value, membership{community: p[4], rating: string(ms[0].Value)})...).Commit()
			if err != nil || r.Succeeded {
				break
			}
		}
		if err != nil {
			s.log.Warn("etcdstore: moving a community ladder row after a game", "key", strconv.Quote(k), "err", err)
		}
	}
}

// RatingHistory implements sessions.Store: a range read of the player's
// entries, one game's or every game's (then put in time order).
func (s *Store) RatingHistory(ctx context.Context, platform, userID, game string) ([]sessions.RatedGame, error) {
	resp, err := s.cli.Get(ctx, s.ratedPrefix(platform, userID, game), clientv3.WithPrefix(), clientv3.WithSort(clientv3.SortByKey, clientv3.SortAscend))
	if err != nil {
		return nil, fmt.Errorf("etcdstore: reading a rating history: %w", err)
	}
	var out []sessions.RatedGame
	for _, kv := range resp.Kvs {
		var r ratedRecord
		if err := json.Unmarshal(kv.Value, &r); err != nil {
			return nil, s.damage("rating history "+strconv.Quote(string(kv.Key)), err)
		}
		out = append(out, r.RatedGame)
	}
	if game == "" {
		sessions.SortRatedGames(out)
	}
	return out, nil
}

// Migrate brings a store written by an older bot up to this one: once
// (meta/rating-log), it builds the rating history and the community
// ladders from the finished games (a game whose record does not name its
// community takes Options.Community's). Other processes may finish
// games meanwhile: the writes compare the game counter with the one the
// build read, and the build starts again when a game ended in between
// (its writes are the same again). Open calls it.
func (s *Store) Migrate(ctx context.Context) error {
	for range 8 {
		done, err := s.buildRatingLog(ctx)
		if err != nil || done {
			return err
		}
	}
	return fmt.Errorf("etcdstore: building the rating history: games kept ending while it was built; try again")
}

// buildRatingLog makes one attempt of Migrate; done is false when a game
// ended while it ran.
func (s *Store) buildRatingLog(ctx context.Context) (done bool, err error) {
	resp, err := s.cli.Txn(ctx).Then(clientv3.OpGet(s.markerKey(), clientv3.WithCountOnly()), clientv3.OpGet(s.nextKey())).Commit()
	if err != nil {
		return false, fmt.Errorf("etcdstore: reading the rating history's marker: %w", err)
	}
	if resp.Responses[0].GetResponseRange().Count > 0 {
		return true, nil
	}
	rev, counter := resp.Header.Revision, int64(0)
	if kvs := resp.Responses[1].GetResponseRange().Kvs; len(kvs) > 0 {
		counter = kvs[0].ModRevision
	} else {
		return true, nil // no finished game: nothing to build (and an empty store stays empty for bot migrate)
	}
	var ops []clientv3.Op
	type member struct {
		key, community string
		st             sessions.Standing
	}
	members := map[string]member{}
	entries := 0
	err = s.scan(ctx, s.prefix+"g/", rev, func(rest string, kv *mvccpb.KeyValue) error {
		id, err := strconv.ParseUint(rest, 10, 64)
		rec, derr := decodeRecord(kv.Value)
		if err != nil || derr != nil || len(rec.Ratings) != 2 {
			return nil // a damaged game: its own reads say so
		}
		rec.ID = strconv.FormatUint(id, 10)
		if rec.Community == "" && s.legacy != nil {
			rec.Community = s.legacy(rec.Key)
		}
		for _, g := range sessions.RatedGamesOf(rec) {
			op, err := s.ratedOp(&g, id)
			if err != nil {
				return err
			}
			ops = append(ops, op)
			entries++
		}
		if !goodCommunity(rec.Community) || !rec.Ratings[0].Rated {
			return nil
		}
		for _, c := range rec.Ratings {
			for _, period := range []string{sessions.AllTime, c.Month} {
				k := s.memberPrefix(rec.Key.Platform, c.User.ID, rec.Game, period) + rec.Community
				members[k] = member{k, rec.Community, sessions.Standing{Platform: rec.Key.Platform, User: c.User, Game: rec.Game, Period: period}}
			}
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("etcdstore: reading the finished games: %w", err)
	}
	for _, m := range members {
		st := m.st
		r, err := s.cli.Get(ctx, s.ratingKey(st.Platform, st.User.ID, st.Game, st.Period), clientv3.WithRev(rev))
		if err != nil {
			return false, fmt.Errorf("etcdstore: reading a standing: %w", err)
		}
		if len(r.Kvs) == 0 {
			continue
		}
		var sr standingRecord
		if err := json.Unmarshal(r.Kvs[0].Value, &sr); err != nil {
			continue // damaged: the next game puts it right
		}
		v, err := json.Marshal(standingRecord{V: 1, Standing: sr.Standing})
		if err != nil {
			return false, err
		}
		ops = append(ops, s.rowOps(sr.Standing, v, membership{community: m.community})...)
	}
	ops = append(ops, clientv3.OpPut(s.markerKey(), "1"))
	// In transactions of at most 100 writes (etcd takes 128 by default),
	// each on the terms that no game ended since the reads.
	same := []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(s.nextKey()), "=", counter),
		clientv3.Compare(clientv3.CreateRevision(s.markerKey()), "=", 0)}
	for len(ops) > 0 {
		n := min(len(ops), 100)
		r, err := s.cli.Txn(ctx).If(same...).Then(ops[:n]...).Commit()
		if err != nil {
			return false, fmt.Errorf("etcdstore: writing the rating history: %w", err)
		}
		if !r.Succeeded {
			return false, nil
		}
		ops = ops[n:]
	}
	s.log.Info("etcdstore: rating history and community ladders built", "entries", entries, "ladder_rows", len(members))
	return true, nil
}
