package telegram

import (
	"context"
	"sync"
	"time"
)

// lanes runs jobs one after another per key (a chat), different keys at
// the same time. A lane's queue has no bound: a job is never dropped, and
// pushing never blocks. A lane's goroutine ends when its queue is empty.
type lanes struct {
	mu sync.Mutex
	m  map[int64]*lane
	wg sync.WaitGroup
}

type lane struct {
	q []func()
}

// push queues f on the lane of key.
func (l *lanes) push(key int64, f func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[int64]*lane{}
	}
	ln := l.m[key]
	if ln == nil {
		ln = &lane{}
		l.m[key] = ln
		l.wg.Add(1)
		go l.run(key, ln)
	}
	ln.q = append(ln.q, f)
}

func (l *lanes) run(key int64, ln *lane) {
	defer l.wg.Done()
	for {
		l.mu.Lock()
		if len(ln.q) == 0 {
			delete(l.m, key)
			l.mu.Unlock()
			return
		}
		f := ln.q[0]
		ln.q[0] = nil
		ln.q = ln.q[1:]
		l.mu.Unlock()
		f()
	}
}

// wait waits until every lane is empty, or until ctx is done.
func (l *lanes) wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { l.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// limiter keeps a chat to at most n messages in any window of length per.
// Only the chat's lane uses it, so it needs no lock of its own.
type limiter struct {
	sent []time.Time // the times of the last n messages, oldest first
}

// wait blocks until one more message fits, then counts it.
func (w *limiter) wait(ctx context.Context, n int, per time.Duration, now func() time.Time) error {
	if n <= 0 {
		return nil
	}
	if len(w.sent) >= n {
		if d := w.sent[len(w.sent)-n].Add(per).Sub(now()); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
		}
	}
	w.sent = append(w.sent, now())
	if len(w.sent) > n {
		w.sent = append(w.sent[:0], w.sent[len(w.sent)-n:]...)
	}
	return nil
}
