package etcdstore

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/boardgamebot/bot/internal/backoff"
	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/grpc/codes"
)

// The outcome of a write whose answer was lost.
//
// A transaction sent to etcd whose answer does not come back (the
// connection reset after the request left, Unavailable, a deadline, the
// leader's death or change) may or may not have been applied, and may
// even be applied later: still queued in the member that took it, or in
// the log of a leader that has not yet committed it. The store does not
// guess. Every write transaction of a change (Commit, PutTournament)
// carries a marker of its own, w/<random id>: it compares the marker
// absent (CreateRevision 0) and puts it with the value markerApplied, on
// a lease of markerTTL. When the answer is lost, settle writes the
// marker itself, with the value markerVoid, in a transaction that
// compares it absent too (a fence), and else reads it:
//
//   - The fence applied: the marker was absent when the fence went
//     through etcd's log, so the change had not applied; and it never
//     will, since from then on its own compare (the marker absent) fails,
//     wherever it may still be waiting. The change did not happen.
//   - The fence did not apply, and the marker holds markerApplied: the
//     change applied, at the marker's CreateRevision (the revision of
//     the whole transaction, and so the session head's new one).
//   - The marker holds markerVoid: an earlier fence of ours applied (its
//     answer was lost too): the change did not happen.
//
// The fence is itself a write through etcd's consensus, not a read: a
// read from a lagging member could miss a committed change (a
// serializable read), and even a linearizable read that finds the marker
// absent says nothing of a change applied after it. A fence whose answer
// is lost too is sent again; it is the same question, asked of any
// member the client reaches (the client balances over every endpoint,
// and WithRequireLeader makes a member cut off from the leader refuse at
// once), until Options.Wait has passed. Only then is the outcome
// unknown: an error wrapping sessions.ErrUnknownOutcome. (Every request
// of a change is bounded by Options.Wait too: the client waits for a
// member as long as its context lets it, so an etcd out of reach would
// hold the change for ever.)
//
// A change found not applied is run again (a new marker), as a change
// whose game counter moved is: so the answer is as if etcd had answered,
// a move played, or refused as usual (the session changed in another
// process: sessions.ErrConflict, and the Service judges the move again).
//
// The marker is the write's own, not the platform's request id
// (Change.Request, kept under s/ for a second delivery of an update): not
// every change has one (the console, the clocks, the computer's moves,
// tournament writes), and a change run again after a fence needs a new
// marker while its request id stays the same. Markers live markerTTL and
// leave with their lease: far longer than a write can still be waiting
// somewhere (a member gives up a proposal after its request timeout,
// seconds, and a new leader drops the entries of an old term it did not
// get once it commits one of its own), and than any wait for an answer.

const (
	// markerTTL is how long a write's marker is kept at least; markers
	// share a lease granted every markerReuse.
	markerTTL   = time.Hour
	markerReuse = 10 * time.Minute
	// markerApplied and markerVoid are the values a write and a fence
	// put in a marker.
	markerApplied = "applied"
	markerVoid    = "void"
	// DefaultWait is Options.Wait's default.
	DefaultWait = 5 * time.Second
	// fenceTry bounds one attempt of a fence.
	fenceTry = 2 * time.Second
)

// newMarker returns the key of a new write's marker.
func (s *Store) newMarker() string {
	return s.prefix + "w/" + rand.Text()
}

// marked adds the marker mk, on lease, to a write's compares and puts.
func marked(mk string, lease clientv3.LeaseID, cmps []clientv3.Cmp, ops []clientv3.Op) ([]clientv3.Cmp, []clientv3.Op) {
	return append(cmps, clientv3.Compare(clientv3.CreateRevision(mk), "=", 0)),
		append(ops, clientv3.OpPut(mk, markerApplied, clientv3.WithLease(lease)))
}

// refused reports whether err, the error of a write, says for sure that
// etcd refused it before applying anything: one of etcd's own errors with
// a code of refusal (a request too large, a lease not found, no space
// left, no permission). Any other error may come after the write was
// applied, or before it will be.
func refused(err error) bool {
	var ee rpctypes.EtcdError
	if !errors.As(err, &ee) {
		return false
	}
	switch ee.Code() {
	case codes.InvalidArgument, codes.NotFound, codes.AlreadyExists, codes.PermissionDenied, codes.ResourceExhausted,
		codes.FailedPrecondition, codes.OutOfRange, codes.Unimplemented, codes.Unauthenticated:
		return true
	}
	return false
}

// lost is what a write does with the error err of its transaction, whose
// marker is mk: a refusal is returned as it is, and a lost answer is
// settled. It returns applied and the transaction's revision when the
// write applied after all, no error when it did not (run it again), and
// an error wrapping sessions.ErrUnknownOutcome when that could not be
// found out.
func (s *Store) lost(ctx context.Context, what string, err error, mk string, lease clientv3.LeaseID) (applied bool, rev int64, _ error) {
	if refused(err) {
		if errors.Is(err, rpctypes.ErrLeaseNotFound) {
			s.forgetLeases() // granted again for the next write
			return false, 0, nil
		}
		return false, 0, fmt.Errorf("etcdstore: %s: %w", what, err)
	}
	applied, rev, serr := s.settle(ctx, mk, lease)
	if serr != nil {
		s.log.Error("etcd lost the answer to a write and could not be asked again", "write", what, "err", err, "asking", serr)
		return false, 0, fmt.Errorf("etcdstore: %s: %w; then asking whether it applied: %w: %w", what, err, serr, sessions.ErrUnknownOutcome)
	}
	s.log.Warn("etcd lost the answer to a write: asked again", "write", what, "err", err, "applied", applied)
	return applied, rev, nil
}

// settle finds out whether the write that carried the marker mk applied
// (see the top of this file), for up to Options.Wait, whatever ctx: the
// caller must know.
func (s *Store) settle(ctx context.Context, mk string, lease clientv3.LeaseID) (applied bool, rev int64, err error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.wait)
	defer cancel()
	bo := backoff.Backoff{First: 50 * time.Millisecond, Max: time.Second}
	for {
		tctx, tcancel := context.WithTimeout(clientv3.WithRequireLeader(ctx), fenceTry)
		resp, err := s.cli.Txn(tctx).If(clientv3.Compare(clientv3.CreateRevision(mk), "=", 0)).
			Then(clientv3.OpPut(mk, markerVoid, clientv3.WithLease(lease))).
			Else(clientv3.OpGet(mk)).Commit()
		tcancel()
		if err == nil {
			if resp.Succeeded {
				return false, 0, nil
			}
			if kvs := resp.Responses[0].GetResponseRange().Kvs; len(kvs) > 0 {
				if string(kvs[0].Value) == markerVoid {
					return false, 0, nil
				}
				return true, kvs[0].CreateRevision, nil
			}
			err = errors.New("the marker is neither absent nor present")
		}
		select {
		case <-ctx.Done():
			return false, 0, fmt.Errorf("no answer within %v (last: %w)", s.wait, err)
		case <-time.After(bo.Next()):
		}
	}
}

// bounded is ctx for the calls to etcd of one step of the store: at most
// Options.Wait (see Options.Wait).
func (s *Store) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.wait)
}

// leaseCache hands out one lease for every key put within reuse of its
// grant; each such key lasts ttl past the grant at least.
type leaseCache struct {
	ttl, reuse time.Duration
	id         clientv3.LeaseID
	at         time.Time
}

// lease returns the lease of c, granting a new one when it is due.
func (s *Store) lease(ctx context.Context, c *leaseCache) (clientv3.LeaseID, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.id != 0 && time.Since(c.at) < c.reuse {
		return c.id, nil
	}
	l, err := s.cli.Grant(ctx, int64((c.ttl + c.reuse).Seconds()))
	if err != nil {
		return 0, fmt.Errorf("etcdstore: granting a lease: %w", err)
	}
	c.id, c.at = l.ID, time.Now()
	return l.ID, nil
}

// forgetLeases drops the leases handed out (etcd lost them: a cluster
// restored from a snapshot), so that the next write grants new ones.
func (s *Store) forgetLeases() {
	s.mu.Lock()
	s.requests.id, s.markers.id = 0, 0
	s.mu.Unlock()
}
