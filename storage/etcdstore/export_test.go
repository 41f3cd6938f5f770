package etcdstore

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// MarkedPut returns, for the tests of outcome.go, a write of k (value v)
// carrying a marker as every write of a change does, not sent yet: send
// sends it and reports whether it applied; settle asks, as a write whose
// answer was lost does, whether it applied.
func (s *Store) MarkedPut(ctx context.Context, k, v string) (send func() (bool, error), settle func() (bool, error), err error) {
	lease, err := s.lease(ctx, &s.markers)
	if err != nil {
		return nil, nil, err
	}
	mk := s.newMarker()
	cmps, ops := marked(mk, lease, nil, []clientv3.Op{clientv3.OpPut(k, v)})
	send = func() (bool, error) {
		resp, err := s.cli.Txn(ctx).If(cmps...).Then(ops...).Commit()
		return err == nil && resp.Succeeded, err
	}
	settle = func() (bool, error) {
		applied, _, err := s.settle(ctx, mk, lease)
		return applied, err
	}
	return send, settle, nil
}
