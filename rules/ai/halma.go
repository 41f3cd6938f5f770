package ai

import (
	"context"
	"math/bits"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/halma"
)

// halmaPos is a Halma position with the number of moves each seat made,
// which the leave-home rule needs.
type halmaPos struct {
	p     halma.Position
	turns [4]uint16
}

// halmaEngine searches Halma. Its evaluation is the distance of each
// player's pieces to its target camp.
type halmaEngine struct {
	players   int
	leaveHome int
	dist      *[4][256]int32 // dist[seat][sq]: how far sq is from seat's target corner
	home      *[4]halma.Board
}

// The generic search calls the engine's methods through its dictionary,
// with a copy of the engine each time: the tables stay behind pointers so
// that the copy is four words.

// newHalmaEngine measures every square against each seat's target corner
// with 2(dx+dy)+max(dx,dy), dx and dy counted from the corner: on every
// board the camp is exactly the set of squares closest by this measure,
// so the total is smallest when the camp is full.
func newHalmaEngine(p halma.Position, leaveHome int) halmaEngine {
	e := halmaEngine{players: p.Players(), leaveHome: leaveHome, dist: new([4][256]int32), home: new([4]halma.Board)}
	n := p.Size()
	corners := [4]halma.Square{halma.SquareAt(0, 0), halma.SquareAt(0, n-1), halma.SquareAt(n-1, n-1), halma.SquareAt(n-1, 0)}
	for seat := 0; seat < e.players; seat++ {
		e.home[seat] = p.Home(seat)
		target := p.Target(seat)
		c := corners[0]
		for _, k := range corners {
			if target.Has(k) {
				c = k
			}
		}
		for f := 0; f < n; f++ {
			for r := 0; r < n; r++ {
				dx, dy := abs(f-c.File()), abs(r-c.Rank())
				e.dist[seat][halma.SquareAt(f, r)] = int32(2*(dx+dy) + max(dx, dy))
			}
		}
	}
	return e
}

var halmaKeys = func() (k [4][256]uint64) {
	x := uint64(0x5EED0003)
	for i := range k {
		for s := range k[i] {
			x = mix(x)
			k[i][s] = x
		}
	}
	return k
}()

func (e halmaEngine) moves(p *halmaPos, buf []halma.Move) []halma.Move {
	return p.p.AppendMoves(buf[:0])
}

func (e halmaEngine) apply(p *halmaPos, m *halma.Move) halmaPos {
	q := halmaPos{p: p.p.Play(*m), turns: p.turns}
	q.turns[p.p.Turn()]++
	return q
}

func (e halmaEngine) hash(p *halmaPos) uint64 {
	var h uint64
	for seat := 0; seat < e.players; seat++ {
		b := p.p.Pieces(seat)
		for w, x := range b {
			for ; x != 0; x &= x - 1 {
				h ^= halmaKeys[seat][w<<6|bits.TrailingZeros64(x)]
			}
		}
	}
	h ^= mix(uint64(p.p.Turn()) + 1)
	if e.leaveHome > 0 {
		h ^= mix(uint64(p.turns[0])<<16 | uint64(p.turns[1]) | 1<<40)
	}
	return h
}

func (e halmaEngine) capture(m *halma.Move) bool { return false }

func (e halmaEngine) order(p *halmaPos, m *halma.Move) int {
	d := &e.dist[p.p.Turn()]
	return int(d[m.From]-d[m.To]) << 8
}

func (e halmaEngine) key(m *halma.Move) int { return int(m.From)<<8 | int(m.To) }

func (e halmaEngine) histSize() int { return 1 << 16 }

func (e halmaEngine) cycles() bool { return false }

func (e halmaEngine) quiet(p *halmaPos) bool { return true }

func (e halmaEngine) over(p *halmaPos) (int, bool) {
	if w := p.p.Winner(); w >= 0 {
		if w == p.p.Turn() {
			return mate, true
		}
		return -mate, true
	}
	if e.leaveHome > 0 {
		prev := (p.p.Turn() + e.players - 1) % e.players
		if int(p.turns[prev]) == e.leaveHome && !p.p.Pieces(prev).And(e.home[prev]).Empty() {
			return mate, true // the previous mover lost (two players)
		}
	}
	return 0, false
}

// cost is how far seat is from winning: the distances of its pieces, the
// stragglers counting more, and the pieces still at home when the
// leave-home rule draws near.
func (e halmaEngine) cost(p *halmaPos, seat int) int {
	d := &e.dist[seat]
	c := int32(0)
	b := p.p.Pieces(seat)
	for w, x := range b {
		for ; x != 0; x &= x - 1 {
			v := d[w<<6|bits.TrailingZeros64(x)]
			c += 4*v + v*v/16
		}
	}
	if e.leaveHome > 0 {
		if n := b.And(e.home[seat]).Count(); n > 0 {
			c += int32(n * (40 + 800*int(p.turns[seat])/e.leaveHome))
		}
	}
	return int(c)
}

// eval scores a two-player position for the side to move.
func (e halmaEngine) eval(p *halmaPos) int {
	me := p.p.Turn()
	return e.cost(p, 1-me) - e.cost(p, me)
}

// halmaTurns counts the moves each seat has made in s's game (also when s
// was restored from a snapshot, without its past moves).
func halmaTurns(s *halma.State) [4]uint16 {
	var t [4]uint16
	for seat := range s.Position().Players() {
		t[seat] = uint16(min(s.Moved(seat), 1<<16-1))
	}
	return t
}

func (pl *Player) searchHalma(ctx context.Context, st *halma.State, o Options, tt *table) (Result, error) {
	b, cancel := pl.budget(ctx, o, halmaLevels)
	defer cancel()
	leaveHome := 0
	if g, ok := st.Game().(halma.Game); ok {
		leaveHome = g.Variant().LeaveHome
	}
	p := halmaPos{p: st.Position(), turns: halmaTurns(st)}
	e := newHalmaEngine(p.p, leaveHome)
	moves := e.moves(&p, nil)
	if len(moves) == 0 {
		return Result{}, rules.Errorc(rules.ErrGameOver, rules.CodeNoLegalMove, nil, "there is no legal move")
	}
	var r result[halma.Move]
	var nodes int64
	if e.players == 2 {
		s := newSearcher[halmaPos, halma.Move](b, e, tt, nil)
		r = s.run(&p, moves)
		nodes = s.nodes
	} else {
		s := &paranoid{budget: b, e: e, root: p.p.Turn()}
		r = s.run(&p, moves)
		if o.out != nil {
			o.out.playedScore, o.out.playedFound = s.valueOf(&p, o.out.played, r.depth)
		}
		nodes = s.nodes
	}
	return Result{Move: halmaRulesMove(r.move), Score: r.score, Depth: r.depth, Nodes: nodes}, nil
}

// halmaRulesMove names m as the State's move list does (Search completes
// it from the State).
func halmaRulesMove(m halma.Move) rules.Move {
	if m.IsPass() {
		return rules.Move{Text: "pass", Pass: true}
	}
	return rules.Move{Text: m.String(), From: m.From.Rules(), To: m.To.Rules()}
}

// paranoid searches four-player Halma as if the three others played
// together against the computer: it maximises its own progress against
// theirs, looking at every move of its own at the root and only the few
// most advancing moves of anyone deeper in the tree.
type paranoid struct {
	budget
	e    halmaEngine
	root int
	bufs [maxPly + 1][]halma.Move
	keys []int // best's order keys
}

// beam is how many moves paranoid looks at below the root.
const beam = 6

// value scores p for the root seat.
func (s *paranoid) value(p *halmaPos, ply int) int {
	if w := p.p.Winner(); w >= 0 {
		if w == s.root {
			return mate - ply
		}
		return -mate + ply
	}
	v := -3 * s.e.cost(p, s.root)
	for seat := 0; seat < s.e.players; seat++ {
		if seat != s.root {
			v += s.e.cost(p, seat)
		}
	}
	v /= 3
	if s.lim.noise > 0 {
		x := mix(s.e.hash(p) ^ s.lim.seed)
		v += int(x%uint64(2*s.lim.noise+1)) - s.lim.noise
	}
	return v
}

// best keeps the n most advancing moves of moves, in order (ties in
// list order): it selects them one by one with each move's key worked
// out once, and leaves the rest of moves in list order after them.
func (s *paranoid) best(p *halmaPos, moves []halma.Move, n int) []halma.Move {
	keys := s.keys[:0]
	for i := range moves {
		keys = append(keys, s.e.order(p, &moves[i]))
	}
	s.keys = keys
	n = min(n, len(moves))
	for i := 0; i < n; i++ {
		b := i
		for j := i + 1; j < len(moves); j++ {
			if keys[j] > keys[b] {
				b = j
			}
		}
		if b != i {
			m, k := moves[b], keys[b]
			copy(moves[i+1:b+1], moves[i:b])
			copy(keys[i+1:b+1], keys[i:b])
			moves[i], keys[i] = m, k
		}
	}
	return moves[:n]
}

func (s *paranoid) search(p *halmaPos, depth, ply, alpha, beta int) int {
	s.nodes++
	if s.nodes&1023 == 0 {
		s.poll()
	}
	if s.stopped {
		return 0
	}
	if depth == 0 || p.p.Winner() >= 0 || ply >= maxPly {
		return s.value(p, ply)
	}
	moves := s.best(p, p.p.AppendMoves(s.bufs[ply][:0]), beam)
	s.bufs[ply] = moves
	maxing := p.p.Turn() == s.root
	for i := range moves {
		child := s.e.apply(p, &moves[i])
		v := s.search(&child, depth-1, ply+1, alpha, beta)
		if maxing && v > alpha {
			alpha = v
		} else if !maxing && v < beta {
			beta = v
		}
		if alpha >= beta {
			break
		}
	}
	if maxing {
		return alpha
	}
	return beta
}

func (s *paranoid) run(p *halmaPos, moves []halma.Move) result[halma.Move] {
	order := append([]halma.Move(nil), moves...)
	rng := s.lim.seed | 1
	for i := len(order) - 1; i > 0; i-- {
		rng = mix(rng)
		j := int(rng % uint64(i+1))
		order[i], order[j] = order[j], order[i]
	}
	order = s.best(p, order, len(order))
	res := result[halma.Move]{move: order[0]}
	if len(order) == 1 {
		return res
	}
	for d := 1; d <= s.lim.depth; d++ {
		alpha, bestIdx := -infinity, -1
		pick := s.lim.pick > 0 && d == s.lim.depth
		noisyBest := -infinity
		for i := range order {
			child := s.e.apply(p, &order[i])
			if pick {
				// The weak levels score every move exactly and pick with noise.
				v := s.search(&child, d-1, 1, -infinity, infinity)
				if s.stopped {
					break
				}
				noisy := v + int(mix(s.lim.seed^uint64(i)<<32)%uint64(2*s.lim.pick+1)) - s.lim.pick
				if noisy > noisyBest {
					noisyBest, alpha, bestIdx = noisy, v, i
				}
				continue
			}
			v := s.search(&child, d-1, 1, alpha, infinity)
			if s.stopped {
				break
			}
			if v > alpha {
				alpha, bestIdx = v, i
			}
		}
		if bestIdx >= 0 {
			res.move, res.score = order[bestIdx], alpha
			m := order[bestIdx]
			copy(order[1:bestIdx+1], order[:bestIdx])
			order[0] = m
		}
		if s.stopped {
			break
		}
		res.depth = d
		if alpha > mateZone || s.enough(d) {
			break
		}
	}
	return res
}

// valueOf is the value for the root seat of the move written text in p,
// searched as the root's moves of an iteration of depth plies are
// (reviews: the score of the move played beside the best one's).
func (s *paranoid) valueOf(p *halmaPos, text string, depth int) (int, bool) {
	for _, m := range p.p.Moves() {
		if halmaRulesMove(m).Text != text {
			continue
		}
		child := s.e.apply(p, &m)
		q := &paranoid{budget: budget{ctx: s.ctx}, e: s.e, root: s.root}
		v := q.search(&child, max(depth-1, 0), 1, -infinity, infinity)
		s.nodes += q.nodes
		return v, !q.stopped
	}
	return 0, false
}
