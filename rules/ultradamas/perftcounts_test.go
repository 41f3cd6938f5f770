package ultradamas

import (
	"context"
	"errors"
	"testing"
)

// A perft stops when its context is done, with the context's error.
func TestPerftCountsCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n, err := Start().PerftCounts(ctx, 12); !errors.Is(err, context.Canceled) || n != nil {
		t.Errorf("PerftCounts(canceled, 12) = %v, %v; want nil, context.Canceled", n, err)
	}
}
