package sessionstest

import (
	"context"
	"testing"

	"github.com/boardgamebot/bot/sessions"
)

// LinkGeneration implements sessions.LinkGenerations.
func (s *MemoryStore) LinkGeneration(ctx context.Context, platform, user string) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.linkGens[platform+"\x00"+user], nil
}

// RaiseLinkGeneration implements sessions.LinkGenerations.
func (s *MemoryStore) RaiseLinkGeneration(ctx context.Context, platform, user string) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.linkGens == nil {
		s.linkGens = map[string]uint64{}
	}
	s.linkGens[platform+"\x00"+user]++
	return s.linkGens[platform+"\x00"+user], nil
}

// TestLinkGenerations is the contract of sessions.LinkGenerations: a user
// starts at 0; each raise adds one, for that user on that platform only;
// a store opened again (reopen, when not nil) keeps them.
func TestLinkGenerations(t *testing.T, open func(t *testing.T) sessions.LinkGenerations, reopen func(t *testing.T) sessions.LinkGenerations) {
	ctx := context.Background()
	s := open(t)
	want := func(s sessions.LinkGenerations, platform, user string, n uint64) {
		t.Helper()
		if g, err := s.LinkGeneration(ctx, platform, user); err != nil || g != n {
			t.Fatalf("%s/%s: generation %d, %v; want %d", platform, user, g, err, n)
		}
	}
	want(s, "telegram", "1", 0)
	for i := uint64(1); i <= 3; i++ {
		if g, err := s.RaiseLinkGeneration(ctx, "telegram", "1"); err != nil || g != i {
			t.Fatalf("raise %d: %d, %v", i, g, err)
		}
	}
	want(s, "telegram", "1", 3)
	want(s, "telegram", "2", 0)
	want(s, "discord", "1", 0)
	want(s, "telegram", "12", 0)
	if g, err := s.RaiseLinkGeneration(ctx, "discord", "1"); err != nil || g != 1 {
		t.Fatalf("discord's user 1: %d, %v", g, err)
	}
	want(s, "telegram", "1", 3)
	if reopen != nil {
		s = reopen(t)
		want(s, "telegram", "1", 3)
		want(s, "discord", "1", 1)
	}
}
