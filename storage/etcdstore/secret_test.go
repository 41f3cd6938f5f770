package etcdstore_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/boardgamebot/bot/storage/etcdstore"
)

// TestSecretShared: processes asking for the same secret at the same
// time on one etcd all get the one that was kept first.
func TestSecretShared(t *testing.T) {
	ctx := context.Background()
	stores := []*etcdstore.Store{open(t), open(t), open(t), open(t)}
	got := make([][]byte, len(stores))
	var wg sync.WaitGroup
	for i, s := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			got[i], err = s.Secret(ctx, "web", func() ([]byte, error) { return []byte(fmt.Sprint("process ", i)), nil })
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for i := range got {
		if !bytes.Equal(got[i], got[0]) || len(got[i]) == 0 {
			t.Fatalf("process %d got %q, process 0 %q", i, got[i], got[0])
		}
	}
	if again, err := open(t).Secret(ctx, "web", func() ([]byte, error) { return []byte("late"), nil }); err != nil || !bytes.Equal(again, got[0]) {
		t.Fatalf("a process started later: %q, %v", again, err)
	}
}
