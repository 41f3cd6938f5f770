package ultradamas

import "context"

// PerftCounts counts the leaves of the move tree of p at every depth from
// 0 to depth in one traversal (counts[d] is Perft(d)); it stops with
// ctx's error when ctx is done.
func (p Position) PerftCounts(ctx context.Context, depth int) ([]uint64, error) {
	n := make([]uint64, max(depth, 0)+1)
	n[0] = 1
	for d := 1; d <= depth; d++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n[d] = p.Perft(d)
	}
	return n, nil
}

// PerftCounts counts the leaves of the move tree at every depth from 0 to
// depth from the current position in one traversal (Position.PerftCounts);
// in the formation phase, from the position FEN shows.
func (s *State) PerftCounts(ctx context.Context, depth int) ([]uint64, error) {
	return s.Position().PerftCounts(ctx, depth)
}
