package etcdstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/dump"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// The reviews of finished games (rv/<game id>), and the claims of the
// processes computing them (rvc/<game id>, on a lease).

// ReviewClaimTTL is the lease of a review's claim: when the process
// computing a review dies, another may claim it after about this time.
const ReviewClaimTTL = 10 * time.Second

func (s *Store) reviewKey(id string) (string, bool) {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n == 0 || strconv.FormatUint(n, 10) != id {
		return "", false
	}
	return s.prefix + "rv/" + id, true
}

func (s *Store) reviewClaimKey(id string) string { return s.prefix + "rvc/" + id }

// Review implements sessions.ReviewStore.
func (s *Store) Review(ctx context.Context, game string) (*sessions.ReviewRecord, error) {
	k, ok := s.reviewKey(game)
	if !ok {
		return nil, fmt.Errorf("etcdstore: review of game %q: %w", game, sessions.ErrNotFound)
	}
	resp, err := s.cli.Get(ctx, k)
	if err != nil {
		return nil, fmt.Errorf("etcdstore: review of game %s: %w", game, err)
	}
	if len(resp.Kvs) == 0 {
		return nil, fmt.Errorf("etcdstore: review of game %s: %w", game, sessions.ErrNotFound)
	}
	return s.decodeReview(resp.Kvs[0].Value, game)
}

func (s *Store) decodeReview(v []byte, game string) (*sessions.ReviewRecord, error) {
	r, err := dump.Review(v, game)
	if err != nil {
		s.log.Error("damaged record in etcd", "record", "review of game "+game, "err", err)
		return nil, fmt.Errorf("etcdstore: review of game %s: %w", game, err)
	}
	return r, nil
}

// PutReview implements sessions.ReviewStore.
func (s *Store) PutReview(ctx context.Context, r *sessions.ReviewRecord) error {
	k, ok := s.reviewKey(r.Game)
	if !ok {
		return fmt.Errorf("etcdstore: review of game %q: bad game id", r.Game)
	}
	c := *r
	if c.V == 0 {
		c.V = dump.ReviewVersion
	}
	v, err := json.Marshal(&c)
	if err != nil {
		return err
	}
	if _, err := s.cli.Put(ctx, k, string(v)); err != nil {
		return fmt.Errorf("etcdstore: saving the review of game %s: %w", r.Game, err)
	}
	return nil
}

// ClaimReview implements sessions.ReviewClaimer: the claim is a key on a
// lease of ReviewClaimTTL that this process keeps alive until release.
func (s *Store) ClaimReview(ctx context.Context, game string) (release func(), ok bool, err error) {
	if _, ok := s.reviewKey(game); !ok {
		return nil, false, fmt.Errorf("etcdstore: review of game %q: bad game id", game)
	}
	sess, err := concurrency.NewSession(s.cli, concurrency.WithTTL(int(ReviewClaimTTL.Seconds())), concurrency.WithContext(context.WithoutCancel(ctx)))
	if err != nil {
		return nil, false, fmt.Errorf("etcdstore: a lease to claim the review of game %s: %w", game, err)
	}
	k := s.reviewClaimKey(game)
	t, err := s.cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(k), "=", 0)).
		Then(clientv3.OpPut(k, strconv.FormatInt(int64(sess.Lease()), 16), clientv3.WithLease(sess.Lease()))).Commit()
	if err != nil || !t.Succeeded {
		sess.Close()
		if err != nil {
			return nil, false, fmt.Errorf("etcdstore: claiming the review of game %s: %w", game, err)
		}
		return nil, false, nil
	}
	return func() { sess.Close() }, true, nil // the lease's revocation deletes the claim
}

// WaitReview implements sessions.ReviewClaimer: it watches the review and
// its claim.
func (s *Store) WaitReview(ctx context.Context, game string) (*sessions.ReviewRecord, error) {
	rk, ok := s.reviewKey(game)
	if !ok {
		return nil, fmt.Errorf("etcdstore: review of game %q: bad game id", game)
	}
	ck := s.reviewClaimKey(game)
	for {
		resp, err := s.cli.Txn(ctx).Then(clientv3.OpGet(rk), clientv3.OpGet(ck)).Commit()
		if err != nil {
			return nil, fmt.Errorf("etcdstore: waiting for the review of game %s: %w", game, err)
		}
		if kvs := resp.Responses[0].GetResponseRange().Kvs; len(kvs) > 0 {
			return s.decodeReview(kvs[0].Value, game)
		}
		if len(resp.Responses[1].GetResponseRange().Kvs) == 0 {
			return nil, nil // nobody computes it
		}
		wctx, cancel := context.WithCancel(ctx)
		rev := resp.Header.Revision + 1
		wr, wc := s.cli.Watch(wctx, rk, clientv3.WithRev(rev)), s.cli.Watch(wctx, ck, clientv3.WithRev(rev))
		select {
		case <-wr:
		case <-wc:
		case <-ctx.Done():
		}
		cancel()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
}

// reviewValue is a review's Value.
func reviewValue(v []byte) ([]byte, error) {
	var r struct {
		Game string `json:"game"`
	}
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, err
	}
	return dump.ReviewValue(v, r.Game)
}

// importReview is the write of a review item.
func (s *Store) importReview(it dump.Item) (string, []byte, error) {
	k, ok := s.reviewKey(it.ID)
	if !ok {
		return "", nil, errors.New("bad game id")
	}
	if _, err := dump.Review(it.Value, it.ID); err != nil {
		return "", nil, err
	}
	return k, it.Value, nil
}
