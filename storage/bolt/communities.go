package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/bbolt"
)

// The rating history and the community ladders (issue 28).
var (
	// bRatedLog: platform 0 user 0 game 0 ended (unix ns, 8 bytes) game
	// id (8 bytes) -> a player's rating history entry (ratedRecord).
	bRatedLog = []byte("rating_log")
	// bMember: platform 0 user 0 game 0 period 0 community -> nothing:
	// the community ladders a player is on.
	bMember = []byte("community_member")
	// bCLadder: platform 0 community 0 game 0 period 0 inverted rating (4
	// bytes) user -> standing; bCCounts: platform 0 community 0 game 0
	// period 0 inverted rating -> players (8 bytes). A community's ladder,
	// as bLadder and bCounts are the platform's.
	bCLadder = []byte("community_ladder")
	bCCounts = []byte("community_count")
)

// ratedRecord is a rating history entry as stored, with its version.
type ratedRecord struct {
	V int `json:"v"`
	sessions.RatedGame
}

func communityPrefix(platform, community, game, period string) []byte {
	return []byte(platform + "\x00" + community + "\x00" + game + "\x00" + period + "\x00")
}

func memberKey(platform, user, game, period, community string) []byte {
	return []byte(platform + "\x00" + user + "\x00" + game + "\x00" + period + "\x00" + community)
}

// ratedKey is where g is stored: the player's entries of a game sort by
// the time the game ended, then by its id.
func ratedKey(g *sessions.RatedGame, id uint64) []byte {
	k := []byte(g.Platform + "\x00" + g.User.ID + "\x00" + g.Game + "\x00")
	k = binary.BigEndian.AppendUint64(k, uint64(g.At.UnixNano()))
	return binary.BigEndian.AppendUint64(k, id)
}

// goodCommunity reports whether a community id can be a key's part.
func goodCommunity(c string) bool { return c != "" && !strings.ContainsRune(c, 0) }

// moveCommunityRows moves the player's row of st (the player's standing
// of a game and period, whose stored value is v; old before it) on every
// community ladder they are on, then puts them on join's when they are
// not on it yet.
func moveCommunityRows(tx *bbolt.Tx, old, st sessions.Standing, v []byte, join string) error {
	members, ladder, counts := tx.Bucket(bMember), tx.Bucket(bCLadder), tx.Bucket(bCCounts)
	prefix := memberKey(st.Platform, st.User.ID, st.Game, st.Period, "")
	joined := !goodCommunity(join)
	c := members.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		community := string(k[len(prefix):])
		joined = joined || community == join
		if err := moveRow(ladder, counts, communityPrefix(st.Platform, community, st.Game, st.Period), old, true, st, v); err != nil {
			return err
		}
	}
	if joined {
		return nil
	}
	if err := members.Put(append(prefix, join...), nil); err != nil {
		return err
	}
	return moveRow(ladder, counts, communityPrefix(st.Platform, join, st.Game, st.Period), old, false, st, v)
}

// putRatedGames writes the rating history entries of the finished game
// rec (its ID and Ratings set).
func putRatedGames(tx *bbolt.Tx, rec *sessions.Record) error {
	id, err := gameNumber(rec.ID)
	if err != nil {
		return err
	}
	for _, g := range sessions.RatedGamesOf(rec) {
		v, err := json.Marshal(ratedRecord{V: 1, RatedGame: g})
		if err != nil {
			return err
		}
		if err := tx.Bucket(bRatedLog).Put(ratedKey(&g, id), v); err != nil {
			return err
		}
	}
	return nil
}

// RatingHistory implements sessions.Store: a prefix of the player's
// entries, one game's or every game's (then put in time order).
func (s *Store) RatingHistory(ctx context.Context, platform, userID, game string) ([]sessions.RatedGame, error) {
	prefix := join(platform, userID)
	if game != "" {
		prefix = append(prefix, game+"\x00"...)
	}
	var out []sessions.RatedGame
	err := s.view("rating history of "+platform+" user "+userID, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bRatedLog)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var r ratedRecord
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("storage: rating history %q: %w", k, damage(err))
			}
			out = append(out, r.RatedGame)
		}
		return nil
	})
	if game == "" {
		sessions.SortRatedGames(out)
	}
	return out, err
}

// fillRatingLog builds the rating history and the community ladders of a
// file written before them, from its finished games in the order they
// were stored: each game's entries, and the community ladders of the
// rated games (a record of an older bot does not name its community:
// s.legacy names it), whose rows are the players' standings now. A
// damaged game is skipped (its own reads say so).
func (s *Store) fillRatingLog(tx *bbolt.Tx) error {
	members := map[string]sessions.Standing{}
	games, entries := 0, 0
	err := tx.Bucket(bGames).ForEach(func(k, v []byte) error {
		rec, err := decode(v)
		if err != nil || len(k) != 8 || len(rec.Ratings) != 2 {
			return nil
		}
		rec.ID = fmt.Sprint(binary.BigEndian.Uint64(k))
		if rec.Community == "" && s.legacy != nil {
			rec.Community = s.legacy(rec.Key)
		}
		if err := putRatedGames(tx, rec); err != nil {
			return err
		}
		games++
		entries += len(sessions.RatedGamesOf(rec))
		if !goodCommunity(rec.Community) || !rec.Ratings[0].Rated {
			return nil
		}
		for _, c := range rec.Ratings {
			for _, period := range []string{sessions.AllTime, c.Month} {
				members[string(memberKey(rec.Key.Platform, c.User.ID, rec.Game, period, rec.Community))] = sessions.Standing{
					Platform: rec.Key.Platform, User: c.User, Game: rec.Game, Period: period}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for k, m := range members {
		community := k[strings.LastIndexByte(k, 0)+1:]
		st, ok, err := getStanding(tx, m.Platform, m.User, m.Game, m.Period)
		if err != nil || !ok {
			continue // a damaged or missing standing: the next game puts it right
		}
		v, err := json.Marshal(standingRecord{V: 1, Standing: st})
		if err != nil {
			return err
		}
		if err := tx.Bucket(bMember).Put([]byte(k), nil); err != nil {
			return err
		}
		if err := moveRow(tx.Bucket(bCLadder), tx.Bucket(bCCounts), communityPrefix(st.Platform, community, st.Game, st.Period), st, false, st, v); err != nil {
			return err
		}
	}
	s.log.Info("storage: rating history and community ladders built", "games", games, "entries", entries, "ladder_rows", len(members))
	return nil
}

// gameNumber is a finished game's id as a number.
func gameNumber(id string) (uint64, error) {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("storage: bad game id %q", id)
	}
	return n, nil
}
