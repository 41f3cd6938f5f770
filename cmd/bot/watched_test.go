package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// watched is an output that tells when it was written to.
type watched struct {
	mu      sync.Mutex
	b       bytes.Buffer
	written chan struct{}
}

func newWatched() *watched { return &watched{written: make(chan struct{}, 1)} }

func (w *watched) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case w.written <- struct{}{}:
	default:
	}
	return w.b.Write(p)
}

func (w *watched) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// waitFor waits until the output holds want.
func (w *watched) waitFor(t *testing.T, want string) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for !strings.Contains(w.String(), want) {
		select {
		case <-w.written:
		case <-timeout:
			t.Fatalf("no %q in:\n%s", want, w.String())
		}
	}
}
