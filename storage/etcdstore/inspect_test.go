package etcdstore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/storage/etcdstore"
	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// TestInspect: Inspect gives each member's version, says which endpoint
// does not answer, and counts the keys under the prefix, writing none.
func TestInspect(t *testing.T) {
	ctx := context.Background()
	prefix := "/" + t.Name() + "/"
	open(t) // the test's keys go when it ends
	for i := range 3 {
		if _, err := cli.Put(ctx, fmt.Sprintf("%sk%d", prefix, i), "x"); err != nil {
			t.Fatal(err)
		}
	}
	port, err := etcdtest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	nobody := fmt.Sprintf("127.0.0.1:%d", port)
	eps := append(cli.Endpoints(), nobody)
	in, err := etcdstore.Inspect(ctx, etcdstore.Config{Endpoints: eps, Prefix: prefix, DialTimeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Members) != 2 || in.Members[0].Err != nil || !strings.HasPrefix(in.Members[0].Version, "3.") ||
		in.Members[1].Err == nil || in.Members[1].Endpoint != nobody {
		t.Fatalf("members: %+v", in.Members)
	}
	if in.KeysErr != nil || in.Keys != 3 {
		t.Fatalf("keys: %d %v", in.Keys, in.KeysErr)
	}
	after, err := cli.Get(ctx, prefix, clientv3.WithPrefix(), clientv3.WithCountOnly())
	if err != nil || after.Count != 3 {
		t.Fatalf("keys after Inspect: %v %v", after, err)
	}
}
