package etcdstore

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

var _ sessions.HeadWatcher = (*Store)(nil)

// WatchHeads implements sessions.HeadWatcher: one etcd watch on the
// heads' prefix (h/), from the store's revision at the call; when the
// watch breaks it starts again from the revision after the last one seen
// (etcd's progress notices keep that revision current while nothing
// changes), and when that revision was compacted it calls lost and goes
// on from the compaction.
func (s *Store) WatchHeads(ctx context.Context, changed func([]sessions.HeadChange), lost func()) error {
	p := s.prefix + "h/"
	var last int64
	for last == 0 {
		rctx, cancel := s.bounded(ctx)
		resp, err := s.cli.Get(rctx, p, clientv3.WithPrefix(), clientv3.WithCountOnly())
		cancel()
		if err == nil {
			last = resp.Header.Revision
			break
		}
		if !pause(ctx, time.Second) {
			return ctx.Err()
		}
	}
	for {
		wctx, cancel := context.WithCancel(clientv3.WithRequireLeader(ctx))
		ch := s.cli.Watch(wctx, p, clientv3.WithPrefix(), clientv3.WithRev(last+1), clientv3.WithProgressNotify())
		for resp := range ch {
			if resp.CompactRevision > last {
				// The changes after last are gone: the follower looks
				// again at everything, and the watch goes on from there.
				last = resp.CompactRevision - 1
				lost()
				break
			}
			if err := resp.Err(); err != nil {
				if err == rpctypes.ErrCompacted {
					lost()
				}
				break
			}
			if resp.IsProgressNotify() {
				last = max(last, resp.Header.Revision)
				continue
			}
			var out []sessions.HeadChange
			for _, ev := range resp.Events {
				last = max(last, ev.Kv.ModRevision)
				parts := strings.Split(string(ev.Kv.Key[len(p):]), "\x00")
				if len(parts) != 3 {
					s.log.Error("damaged session key", "key", strconv.Quote(string(ev.Kv.Key)))
					continue
				}
				c := sessions.HeadChange{Key: sessions.Key{Platform: parts[0], Channel: parts[1], Thread: parts[2]}}
				if ev.Type == mvccpb.DELETE {
					c.Gone = true
				} else if rec, err := headRecord(ev.Kv.Value); err == nil {
					c.Created, c.Version = rec.Created, rec.Version
				}
				out = append(out, c)
			}
			if len(out) > 0 {
				changed(out)
			}
		}
		cancel()
		if !pause(ctx, 100*time.Millisecond) {
			return ctx.Err()
		}
	}
}

// pause waits d, or less when ctx is done first: false then.
func pause(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
