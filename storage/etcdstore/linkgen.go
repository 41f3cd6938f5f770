package etcdstore

import (
	"context"
	"fmt"
	"strconv"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// linkGenPrefix starts the keys of the users' link generations (after
// the store's prefix): lg/<platform>0<user>, the generation in decimal.
const linkGenPrefix = "lg/"

func (s *Store) linkGenKey(platform, user string) string {
	return s.prefix + linkGenPrefix + platform + "\x00" + user
}

// LinkGeneration implements sessions.LinkGenerations.
func (s *Store) LinkGeneration(ctx context.Context, platform, user string) (uint64, error) {
	resp, err := s.cli.Get(ctx, s.linkGenKey(platform, user))
	if err != nil {
		return 0, fmt.Errorf("etcdstore: reading a link generation: %w", err)
	}
	if len(resp.Kvs) == 0 {
		return 0, nil
	}
	return linkGen(resp.Kvs[0].Value)
}

// RaiseLinkGeneration implements sessions.LinkGenerations: a compare and
// swap on the key's revision, again when another process raised it
// meanwhile.
func (s *Store) RaiseLinkGeneration(ctx context.Context, platform, user string) (uint64, error) {
	k := s.linkGenKey(platform, user)
	for {
		resp, err := s.cli.Get(ctx, k)
		if err != nil {
			return 0, fmt.Errorf("etcdstore: raising a link generation: %w", err)
		}
		var old uint64
		var rev int64
		if len(resp.Kvs) > 0 {
			if old, err = linkGen(resp.Kvs[0].Value); err != nil {
				return 0, err
			}
			rev = resp.Kvs[0].ModRevision
		}
		n := old + 1
		t, err := s.cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(k), "=", rev)).
			Then(clientv3.OpPut(k, strconv.FormatUint(n, 10))).Commit()
		if err != nil {
			return 0, fmt.Errorf("etcdstore: raising a link generation: %w", err)
		}
		if t.Succeeded {
			return n, nil
		}
	}
}

// linkGen reads a stored generation.
func linkGen(v []byte) (uint64, error) {
	n, err := strconv.ParseUint(string(v), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("etcdstore: bad link generation %q", v)
	}
	return n, nil
}

// linkGenValue is a link generation's Value: as stored, checked.
func linkGenValue(v []byte) ([]byte, error) {
	if n, err := linkGen(v); err != nil || n == 0 {
		return nil, fmt.Errorf("bad link generation %q", v)
	}
	return v, nil
}
