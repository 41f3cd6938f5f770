package chat

import "sync"

// Recent remembers the last ids it was given (updates, interactions), so
// that an adapter applies one the platform delivered twice only once. It
// is safe for concurrent use.
type Recent struct {
	mu   sync.Mutex
	set  map[string]struct{}
	ring []string
	next int
}

// NewRecent returns a Recent that remembers the last n ids.
func NewRecent(n int) *Recent {
	return &Recent{set: make(map[string]struct{}, n), ring: make([]string, max(n, 1))}
}

// Add reports whether id is new, and remembers it.
func (r *Recent) Add(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.set[id]; ok {
		return false
	}
	if old := r.ring[r.next]; old != "" {
		delete(r.set, old)
	}
	r.ring[r.next] = id
	r.next = (r.next + 1) % len(r.ring)
	r.set[id] = struct{}{}
	return true
}
