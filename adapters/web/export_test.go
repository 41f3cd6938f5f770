package web

// Made returns how many values of kind (snapshot, frames, picture,
// state) the server's cache made: the work done for its pages.
func (s *Server) Made(kind string) int { return s.cache.made(kind) }

// Writing returns how many streams have a writer running (a write under
// way or waiting to start).
func (h *Hub) Writing() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.writing
}
