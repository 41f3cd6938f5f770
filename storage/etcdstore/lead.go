package etcdstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/etcd/client/v3/concurrency"
)

// LeaderTTL is the lease of the clocks' leader: when its process dies,
// another takes over within about this time.
const LeaderTTL = 10 * time.Second

// Lead runs run while this process leads the clocks among the processes
// on this etcd and prefix: it campaigns in an etcd election (on a lease
// of ttl, LeaderTTL when 0) under name; when it wins it calls run, and
// cancels run's context when it loses the lease (etcd unreachable for
// longer than ttl). Then it campaigns again. It returns when ctx is done
// (resigning, so that another process takes over at once).
func (s *Store) Lead(ctx context.Context, name string, ttl time.Duration, run func(ctx context.Context)) {
	if ttl <= 0 {
		ttl = LeaderTTL
	}
	for ctx.Err() == nil {
		if err := s.leadOnce(ctx, name, ttl, run); err != nil && ctx.Err() == nil {
			s.log.Warn("clock leader election failed; trying again", "err", err)
			select { // etcd is unreachable: wait a little before asking again
			case <-ctx.Done():
			case <-time.After(ttl / 5):
			}
		}
	}
}

func (s *Store) leadOnce(ctx context.Context, name string, ttl time.Duration, run func(ctx context.Context)) error {
	sess, err := concurrency.NewSession(s.cli, concurrency.WithTTL(max(1, int(ttl.Seconds()))), concurrency.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("etcdstore: a lease for the clock election: %w", err)
	}
	defer sess.Close() // revokes the lease
	el := concurrency.NewElection(sess, s.prefix+"clock-leader")
	if err := el.Campaign(ctx, name); err != nil {
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return fmt.Errorf("etcdstore: campaigning for the clocks: %w", err)
	}
	s.log.Info("leading the clocks", "name", name)
	lctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-sess.Done(): // the lease is lost: another process may lead now
			cancel()
		case <-lctx.Done():
		}
	}()
	run(lctx)
	cancel()
	<-done
	rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer rcancel()
	_ = el.Resign(rctx) // best effort: the lease's revocation (sess.Close) ends the term too
	s.log.Info("no longer leading the clocks", "name", name)
	return nil
}
