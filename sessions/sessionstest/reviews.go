package sessionstest

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/boardgamebot/bot/sessions"
)

// Review implements sessions.ReviewStore.
func (m *MemoryStore) Review(ctx context.Context, game string) (*sessions.ReviewRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.reviews[game]
	if !ok {
		return nil, fmt.Errorf("review of game %q: %w", game, sessions.ErrNotFound)
	}
	var r sessions.ReviewRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("review of game %q: %w: %v", game, sessions.ErrDamaged, err)
	}
	return &r, nil
}

// PutReview implements sessions.ReviewStore.
func (m *MemoryStore) PutReview(ctx context.Context, r *sessions.ReviewRecord) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.reviews == nil {
		m.reviews = map[string][]byte{}
	}
	m.reviews[r.Game] = b
	return nil
}
