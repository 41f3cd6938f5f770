package etcdstore

import (
	"context"
	"fmt"
	"strings"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Secret returns the secret kept under name (meta/secret/<name>; the web
// board's key that signs its links), made by gen and kept by the first
// process that asks for it: every process on the store signs with the
// same key (a process that loses the race takes the winner's).
func (s *Store) Secret(ctx context.Context, name string, gen func() ([]byte, error)) ([]byte, error) {
	if name == "" || strings.ContainsRune(name, 0) {
		return nil, fmt.Errorf("etcdstore: bad secret name %q", name)
	}
	k := s.prefix + "meta/secret/" + name
	resp, err := s.cli.Get(ctx, k)
	if err != nil {
		return nil, fmt.Errorf("etcdstore: reading secret %s: %w", name, err)
	}
	if len(resp.Kvs) > 0 {
		return resp.Kvs[0].Value, nil
	}
	made, err := gen()
	if err != nil {
		return nil, err
	}
	t, err := s.cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(k), "=", 0)).
		Then(clientv3.OpPut(k, string(made))).Else(clientv3.OpGet(k)).Commit()
	if err != nil {
		return nil, fmt.Errorf("etcdstore: keeping secret %s: %w", name, err)
	}
	if t.Succeeded {
		return made, nil
	}
	kvs := t.Responses[0].GetResponseRange().Kvs
	if len(kvs) == 0 {
		return nil, fmt.Errorf("etcdstore: secret %s vanished while kept", name)
	}
	return kvs[0].Value, nil
}
