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

func (s *Store) cladderKey(community string, st sessions.Standing) string {
	return s.cladderPrefix(st.Platform, community, st.Game, st.Period) + inverted(st.Rating) + "\x00" + st.User.ID
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

// communityOps move the row of st (old before it; v its stored value) on
// each community ladder of communities (those the player is on), and put
// the player on the ladder of r's community when the game joins it
// (RateRequest.Joins) and they are not on it yet.
func (s *Store) communityOps(r *sessions.RateRequest, old, st sessions.Standing, v []byte, communities []string) []clientv3.Op {
	var ops []clientv3.Op
	joined := !r.Joins() || !goodCommunity(r.Community)
	for _, c := range communities {
		joined = joined || c == r.Community
		if k := s.cladderKey(c, old); k != s.cladderKey(c, st) {
			ops = append(ops, clientv3.OpDelete(k))
		}
		ops = append(ops, clientv3.OpPut(s.cladderKey(c, st), string(v)))
	}
	if !joined {
		ops = append(ops, clientv3.OpPut(s.memberPrefix(st.Platform, st.User.ID, st.Game, st.Period)+r.Community, ""),
			clientv3.OpPut(s.cladderKey(r.Community, st), string(v)))
	}
	return ops
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
		ops = append(ops, clientv3.OpPut(m.key, ""), clientv3.OpPut(s.cladderKey(m.community, sr.Standing), string(v)))
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
