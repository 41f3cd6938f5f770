package telegram

import (
	"context"
	"sync"
)

// lanes runs jobs one after another per key (a chat), different keys at
// the same time: the handling of updates, and the keyboard edits. A lane's queue has no bound: a job is never dropped, and
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
func (l *lanes) wait(ctx context.Context) error { return waitFor(ctx, &l.wg) }

// waitFor waits for wg, or until ctx is done.
func waitFor(ctx context.Context, wg *sync.WaitGroup) error {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
