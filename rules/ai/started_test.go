package ai

import (
	"context"
	"testing"
	"time"
)

// TestRunningAndStarted: Running counts the searches that hold a table,
// Waiting those queued for one; WithStart's hook tells when a search
// starts, after its wait: the second search on one table starts only once
// the first is over.
func TestRunningAndStarted(t *testing.T) {
	p := New(Config{TableMB: 1, Searches: 1, MaxTime: time.Minute})
	s := load(t, "spanish", nil, middleGame)
	if p.Running() != 0 || p.Waiting() != 0 {
		t.Fatalf("idle: %d running, %d waiting", p.Running(), p.Waiting())
	}
	long, stop := context.WithCancel(context.Background())
	firstStarted, firstDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(firstDone)
		p.Search(WithStart(long, func() { close(firstStarted) }), s, Options{Level: 5})
	}()
	<-firstStarted
	secondStarted, secondDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(secondDone)
		if _, err := p.Search(WithStart(context.Background(), func() { close(secondStarted) }), s, Options{Level: 1, Seed: 1}); err != nil {
			t.Error(err)
		}
	}()
	for p.Waiting() != 1 {
		select {
		case <-secondStarted:
			t.Fatal("the second search started while the first held the only table")
		case <-time.After(time.Millisecond):
		}
	}
	if p.Running() != 1 {
		t.Fatalf("one search running, one waiting: Running %d", p.Running())
	}
	stop()
	<-firstDone
	<-secondStarted
	<-secondDone
	if p.Running() != 0 || p.Waiting() != 0 {
		t.Fatalf("after both: %d running, %d waiting", p.Running(), p.Waiting())
	}
}
