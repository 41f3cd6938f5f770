package etcdstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/etcd/client/v3/concurrency"
)

// The elections of Lead and LeadElection.
const (
	clockElection = "clock-leader"
	// PollElection is the election of the process that polls Telegram.
	PollElection = "telegram-poll"
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
	s.LeadElection(ctx, clockElection, name, ttl, run)
}

// LeadElection is Lead in the election of another task than the clocks
// (PollElection): run runs while this process leads it.
func (s *Store) LeadElection(ctx context.Context, election, name string, ttl time.Duration, run func(ctx context.Context)) {
	if ttl <= 0 {
		ttl = LeaderTTL
	}
	for ctx.Err() == nil {
		if err := s.leadOnce(ctx, election, name, ttl, run); err != nil && ctx.Err() == nil {
			s.log.Warn("leader election failed; trying again", "election", election, "err", err)
			select { // etcd is unreachable: wait a little before asking again
			case <-ctx.Done():
			case <-time.After(ttl / 5):
			}
		}
	}
}

func (s *Store) leadOnce(ctx context.Context, election, name string, ttl time.Duration, run func(ctx context.Context)) error {
	sess, err := concurrency.NewSession(s.cli, concurrency.WithTTL(max(1, int(ttl.Seconds()))), concurrency.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("etcdstore: a lease for the election %s: %w", election, err)
	}
	defer sess.Close() // revokes the lease
	el := concurrency.NewElection(sess, s.prefix+election)
	if err := el.Campaign(ctx, name); err != nil {
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return fmt.Errorf("etcdstore: campaigning in the election %s: %w", election, err)
	}
	s.log.Info("leading", "election", election, "name", name)
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
	s.log.Info("no longer leading", "election", election, "name", name)
	return nil
}
