package ai

import (
	"context"
	"slices"
)

// Scores. A won position scores mate minus the plies to the win, so that
// the search prefers the quickest win and the slowest loss.
const (
	mate     = 30000
	infinity = 32000
	mateZone = mate - 1000 // scores beyond are wins or losses
	maxPly   = 128
)

// engine is what the search needs of a game: P is the game's comparable
// position, M its move. Every method sees the position from the side to move.
type engine[P comparable, M comparable] interface {
	// moves appends the legal moves of p to buf[:0].
	moves(p *P, buf []M) []M
	// apply returns the position after m.
	apply(p *P, m *M) P
	// eval scores p for the side to move, in hundredths of a man.
	eval(p *P) int
	// hash is p's Zobrist key.
	hash(p *P) uint64
	// capture reports whether m captures: captures are searched past the
	// depth limit (quiescence) and tried first.
	capture(m *M) bool
	// order is m's static ordering score (higher first): the pieces a capture
	// takes, the progress of a Halma move.
	order(p *P, m *M) int
	// key indexes the history table: below histSize.
	key(m *M) int
	histSize() int
	// quiet reports that the side to move surely has no capture (false
	// when unsure): the search then stands pat at its depth limit without
	// generating the moves.
	quiet(p *P) bool
	// over reports an end of the game that the move list does not show
	// (a draw rule, a Halma win or leave-home loss) and its score for the
	// side to move.
	over(p *P) (score int, ended bool)
	// cycles reports whether a repeated position in the search is a draw.
	cycles() bool
}

// limits bound one search.
type limits struct {
	depth int   // deepest iteration
	nodes int64 // stop after this many nodes (0: no limit)
	noise int   // amplitude of the evaluation noise (weak levels)
	pick  int   // amplitude of the noise on the root moves' scores (weak levels)
	lmr   bool  // reduce the depth of late quiet moves
	seed  uint64
	// floorDepth and floorNodes, for a search with a shorter time
	// (budget.soft), are the work it does at least: it stops once its
	// short time is over and it completed floorDepth plies or searched
	// floorNodes positions (level 4's limits).
	floorDepth int
	floorNodes int64
}

// result is what a search found.
type result[M any] struct {
	move  M
	index int // the move's index in the generated root list
	score int
	depth int // the deepest completed iteration
	nodes int64
}

// searcher is one iterative-deepening alpha-beta search (negamax with
// principal variation search, a transposition table, killer moves, the
// history heuristic, a quiescence search of captures and an extension of
// forced moves).
type searcher[P comparable, M comparable, E engine[P, M]] struct {
	budget
	e       E
	tt      *table
	bufs    [maxPly + 1][]M
	order   [maxPly + 1][]int
	scores  [maxPly + 1][]int
	keys    []int64 // sortByScore's buffer
	path    [maxPly + 1]uint64
	killers [maxPly + 1][2]M
	hasKill [maxPly + 1][2]bool
	history []int32
	before  map[uint64]bool // positions of the game before the root
}

func newSearcher[P comparable, M comparable, E engine[P, M]](b budget, e E, tt *table, before map[uint64]bool) *searcher[P, M, E] {
	tt.clear()
	return &searcher[P, M, E]{budget: b, e: e, tt: tt, history: make([]int32, e.histSize()), before: before}
}

// budget is what a search may spend: its context (cancelled when the game
// ends or the time is up) and its node limit; under load, level 5's
// shorter time too. Both searches embed it.
type budget struct {
	ctx context.Context
	lim limits
	// soft, when set, is done when a level-5 search under load has had
	// its shorter time: then it stops once it did level 4's work
	// (lim.floorDepth, lim.floorNodes).
	soft    context.Context
	nodes   int64
	stopped bool
}

// poll stops the search when its context is done or its nodes are spent,
// or when its shorter time is over and it searched level 4's positions.
func (s *budget) poll() {
	if s.lim.nodes > 0 && s.nodes >= s.lim.nodes {
		s.stopped = true
		return
	}
	select {
	case <-s.ctx.Done():
		s.stopped = true
		return
	default:
	}
	if s.soft != nil && s.lim.floorNodes > 0 && s.nodes >= s.lim.floorNodes && s.soft.Err() != nil {
		s.stopped = true
	}
}

// enough reports, after an iteration of depth d, that a search with a
// shorter time has had it and reached level 4's depth.
func (s *budget) enough(d int) bool {
	return s.soft != nil && d >= s.lim.floorDepth && s.soft.Err() != nil
}

// evaluate is the engine's evaluation with the level's noise: a function
// of the position and the seed, so that the search stays consistent.
func (s *searcher[P, M, E]) evaluate(p *P, h uint64) int {
	v := s.e.eval(p)
	if s.lim.noise > 0 {
		x := mix(h ^ s.lim.seed)
		v += int(x%uint64(2*s.lim.noise+1)) - s.lim.noise
	}
	return v
}

// repeated reports whether the position at ply (key h) stood earlier on
// the search path or in the game, with the same side to move.
func (s *searcher[P, M, E]) repeated(h uint64, ply int) bool {
	for i := ply - 2; i >= 0; i -= 2 {
		if s.path[i] == h {
			return true
		}
	}
	return len(s.before) > 0 && s.before[h]
}

func toTT(score, ply int) int {
	switch {
	case score > mateZone:
		return score + ply
	case score < -mateZone:
		return score - ply
	}
	return score
}

func fromTT(score, ply int) int {
	switch {
	case score > mateZone:
		return score - ply
	case score < -mateZone:
		return score + ply
	}
	return score
}

// sortMoves fills s.order[ply] with the indexes of moves, best first:
// the table's move, captures by ordering score, killers, then history.
func (s *searcher[P, M, E]) sortMoves(p *P, moves []M, ply, ttBest int) []int {
	idx := s.order[ply][:0]
	sc := s.scores[ply][:0]
	for i := range moves {
		m := &moves[i]
		v := s.e.order(p, m)
		switch {
		case i == ttBest:
			v = 1 << 30
		case s.e.capture(m):
			v += 1 << 24
		case s.hasKill[ply][0] && s.killers[ply][0] == *m:
			v += 1 << 22
		case s.hasKill[ply][1] && s.killers[ply][1] == *m:
			v += 1 << 21
		default:
			v += int(s.history[s.e.key(m)])
		}
		idx = append(idx, i)
		sc = append(sc, v)
	}
	s.keys = sortByScore(idx, sc, s.keys)
	s.order[ply], s.scores[ply] = idx, sc
	return idx
}

// sortByScore sorts sc from the highest score down, ties in their first
// order (a stable sort), and idx along with it. Short lists, often nearly
// sorted (draughts), take an insertion sort; long ones (Halma) are packed
// with their positions into distinct int64 keys for slices.Sort, with
// keys as the buffer (returned for reuse).
func sortByScore(idx, sc []int, keys []int64) []int64 {
	if len(idx) <= 16 || len(idx) > 1<<16 {
		for i := 1; i < len(idx); i++ {
			for j := i; j > 0 && sc[j] > sc[j-1]; j-- {
				sc[j], sc[j-1] = sc[j-1], sc[j]
				idx[j], idx[j-1] = idx[j-1], idx[j]
			}
		}
		return keys
	}
	keys = keys[:0]
	for k := range sc {
		// Highest key first: the score, then the earlier position.
		keys = append(keys, -(int64(sc[k])<<16 | int64(0xFFFF-k)))
	}
	slices.Sort(keys)
	for k, key := range keys {
		key = -key
		from := 0xFFFF - int(key&0xFFFF)
		sc[k] = int(key >> 16)
		keys[k] = int64(idx[from])
	}
	for k := range keys {
		idx[k] = int(keys[k])
	}
	return keys
}

// search is the negamax alpha-beta search of p to depth plies (then the
// quiescence search of captures), at distance ply from the root.
func (s *searcher[P, M, E]) search(p *P, depth, ply, alpha, beta int) int {
	s.nodes++
	if s.nodes&1023 == 0 {
		s.poll()
	}
	if s.stopped {
		return 0
	}
	h := s.e.hash(p)
	s.path[ply] = h
	if sc, ended := s.e.over(p); ended {
		return fromTT(sc, ply)
	}
	if s.e.cycles() && s.repeated(h, ply) {
		return 0
	}
	if ply >= maxPly || depth <= 0 && s.e.quiet(p) {
		return s.evaluate(p, h)
	}
	if depth < 0 {
		depth = 0
	}
	// The quiescence search (depth 0) does without the table.
	ttBest := -1
	if depth > 0 {
		if e, ok := s.tt.probe(h); ok {
			ttBest = int(e.best) - 1
			if sc, cut := cutoff(e, depth, ply, alpha, beta); cut {
				return sc
			}
		}
	}
	moves := s.e.moves(p, s.bufs[ply])
	s.bufs[ply] = moves
	if len(moves) == 0 {
		return -mate + ply
	}
	if depth == 0 && !s.e.capture(&moves[0]) {
		return s.evaluate(p, h)
	}
	next := depth - 1
	if len(moves) == 1 && depth > 0 {
		next = depth // a forced move costs no depth
	}
	if next < 0 {
		next = 0
	}
	order := s.sortMoves(p, moves, ply, ttBest)
	best, bestIdx, a := -infinity, -1, alpha
	for n, i := range order {
		child := s.e.apply(p, &moves[i])
		var sc int
		if n == 0 {
			sc = -s.search(&child, next, ply+1, -beta, -a)
		} else {
			// Late quiet moves are searched less deep first, and again at
			// full depth when they look better than the best so far.
			r := 0
			if s.lim.lmr && depth >= 3 && n >= 3 && s.scores[ply][n] < 1<<21 && !s.e.capture(&moves[i]) {
				r = 1
				if n >= 8 && depth >= 6 {
					r = 2
				}
			}
			sc = -s.search(&child, next-r, ply+1, -a-1, -a)
			if r > 0 && sc > a {
				sc = -s.search(&child, next, ply+1, -a-1, -a)
			}
			if sc > a && sc < beta {
				sc = -s.search(&child, next, ply+1, -beta, -a)
			}
		}
		if s.stopped {
			return 0
		}
		if sc > best {
			best, bestIdx = sc, i
			if sc > a {
				a = sc
				if a >= beta {
					if m := &moves[i]; !s.e.capture(m) {
						s.refuted(m, ply, depth)
					}
					break
				}
			}
		}
	}
	bound := boundExact
	switch {
	case best >= beta:
		bound = boundLower
	case best <= alpha:
		bound = boundUpper
	}
	s.tt.store(h, depth, toTT(best, ply), bound, bestIdx)
	return best
}

// cutoff reports whether a table entry of at least depth settles the
// search of its position with window (alpha, beta), and the score.
func cutoff(e entry, depth, ply, alpha, beta int) (int, bool) {
	if int(e.depth) < depth {
		return 0, false
	}
	sc := fromTT(int(e.score), ply)
	switch {
	case e.bound == boundExact,
		e.bound == boundLower && sc >= beta,
		e.bound == boundUpper && sc <= alpha:
		return sc, true
	}
	return 0, false
}

// refuted remembers a quiet move that refuted its position.
func (s *searcher[P, M, E]) refuted(m *M, ply, depth int) {
	if !s.hasKill[ply][0] || s.killers[ply][0] != *m {
		s.killers[ply][1], s.hasKill[ply][1] = s.killers[ply][0], s.hasKill[ply][0]
		s.killers[ply][0], s.hasKill[ply][0] = *m, true
	}
	k := s.e.key(m)
	s.history[k] += int32(depth * depth)
	if s.history[k] > 1<<20 {
		for i := range s.history {
			s.history[i] /= 2
		}
	}
}

// run searches p by iterative deepening and returns the best move of the
// deepest iteration (a move of an unfinished iteration when it was found
// better than the previous best). moves must be p's legal moves, at least one.
func (s *searcher[P, M, E]) run(p *P, moves []M) result[M] {
	order := make([]int, len(moves))
	for i := range order {
		order[i] = i
	}
	// The seed decides among moves the search cannot tell apart.
	rng := s.lim.seed | 1
	for i := len(order) - 1; i > 0; i-- {
		rng = mix(rng)
		j := int(rng % uint64(i+1))
		order[i], order[j] = order[j], order[i]
	}
	// Captures first, by their ordering score.
	key := make([]int, len(moves))
	for i := range moves {
		key[i] = s.e.order(p, &moves[i])
		if s.e.capture(&moves[i]) {
			key[i] += 1 << 24
		}
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && key[order[j]] > key[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	res := result[M]{move: moves[order[0]], index: order[0]}
	if len(moves) == 1 {
		return res
	}
	h := s.e.hash(p)
	s.path[0] = h
	for d := 1; d <= s.lim.depth; d++ {
		// The weak levels score every root move exactly in their last
		// iteration, then pick among them with noise.
		pick := s.lim.pick > 0 && d == s.lim.depth
		alpha, bestIdx, bestScore := -infinity, -1, -infinity
		bestNoisy := -infinity
		for n, i := range order {
			child := s.e.apply(p, &moves[i])
			var sc int
			if n == 0 || pick {
				sc = -s.search(&child, d-1, 1, -infinity, infinity)
			} else {
				sc = -s.search(&child, d-1, 1, -alpha-1, -alpha)
				if sc > alpha && !s.stopped {
					sc = -s.search(&child, d-1, 1, -infinity, -alpha)
				}
			}
			if s.stopped {
				break
			}
			if pick {
				noisy := sc
				if sc > -mateZone && sc < mateZone {
					noisy += int(mix(s.lim.seed^uint64(i)<<32)%uint64(2*s.lim.pick+1)) - s.lim.pick
				}
				if noisy > bestNoisy {
					bestNoisy, bestIdx, bestScore = noisy, i, sc
				}
				continue
			}
			if sc > alpha {
				alpha, bestIdx, bestScore = sc, i, sc
				// Keep the best move first for the next iteration.
				copy(order[1:n+1], order[:n])
				order[0] = i
			}
		}
		if bestIdx >= 0 {
			res.move, res.index, res.score = moves[bestIdx], bestIdx, bestScore
		}
		if s.stopped {
			break
		}
		res.depth = d
		if !pick {
			s.tt.store(h, d, toTT(bestScore, 0), boundExact, bestIdx)
		}
		if s.enough(d) {
			break
		}
		if bestScore > mateZone || bestScore < -mateZone {
			// A forced result is known: deeper iterations will not change it.
			if mate-abs(bestScore) <= d && !pick {
				break
			}
		}
	}
	res.nodes = s.nodes
	return res
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// mix is a 64-bit finaliser (SplitMix64): the package's only source of
// pseudo-random numbers, driven by the caller's seed.
func mix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	return x ^ x>>31
}
