package bolt

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/dump"
	"go.etcd.io/bbolt"
)

// bReviews holds the reviews of finished games: game id (8 bytes) ->
// sessions.ReviewRecord ({"v":1,"game":"12",...}).
var bReviews = []byte("reviews")

// reviewKey is the key of game id's review: its id as the games bucket
// keys it.
func reviewKey(id string) ([]byte, bool) {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n == 0 {
		return nil, false
	}
	return u64(n), true
}

// Review implements sessions.ReviewStore.
func (s *Store) Review(ctx context.Context, game string) (*sessions.ReviewRecord, error) {
	k, ok := reviewKey(game)
	if !ok {
		return nil, fmt.Errorf("storage: review of game %q: %w", game, sessions.ErrNotFound)
	}
	var r *sessions.ReviewRecord
	err := s.view("review of game "+game, func(tx *bbolt.Tx) error {
		v := tx.Bucket(bReviews).Get(k)
		if v == nil {
			return sessions.ErrNotFound
		}
		var err error
		r, err = dump.Review(v, game)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: review of game %q: %w", game, err)
	}
	return r, nil
}

// PutReview implements sessions.ReviewStore.
func (s *Store) PutReview(ctx context.Context, r *sessions.ReviewRecord) error {
	k, ok := reviewKey(r.Game)
	if !ok {
		return fmt.Errorf("storage: review of game %q: bad game id", r.Game)
	}
	c := *r
	if c.V == 0 {
		c.V = dump.ReviewVersion
	}
	v, err := json.Marshal(&c)
	if err != nil {
		return err
	}
	select {
	case <-s.quit:
		return fmt.Errorf("storage: saving the review of game %s: %w", r.Game, ErrClosed)
	default:
	}
	if err := s.update("review of game "+r.Game, func(tx *bbolt.Tx) error { return tx.Bucket(bReviews).Put(k, v) }); err != nil {
		return fmt.Errorf("storage: saving the review of game %s: %w", r.Game, err)
	}
	return nil
}

// exportReview emits the items of dump.KindReview.
func exportReview(tx *bbolt.Tx, emit func(dump.Item) error) error {
	return each(tx, bReviews, func(k, v []byte) error {
		if len(k) != 8 {
			return damage(fmt.Errorf("review key %q", k))
		}
		id := strconv.FormatUint(binary.BigEndian.Uint64(k), 10)
		val, err := dump.ReviewValue(v, id)
		if err != nil {
			return fmt.Errorf("review of game %s: %w", id, err)
		}
		return emit(dump.Item{Kind: dump.KindReview, ID: id, Value: val})
	})
}

// importReview writes a review item.
func importReview(tx *bbolt.Tx, it dump.Item) error {
	k, ok := reviewKey(it.ID)
	if !ok {
		return fmt.Errorf("bad game id")
	}
	if _, err := dump.Review(it.Value, it.ID); err != nil {
		return err
	}
	return tx.Bucket(bReviews).Put(k, it.Value)
}
