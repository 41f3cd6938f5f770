package ai

import (
	"context"
	"math"
	"math/bits"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/draughts"
	"github.com/boardgamebot/bot/rules/halma"
	"github.com/boardgamebot/bot/rules/ultradamas"
)

// Mark is the review's verdict on one move: none, or how much of the
// mover's winning chances it gave away.
type Mark int8

// The marks, from the least to the worst (their signs: ?!, ?, ??).
const (
	MarkNone Mark = iota
	MarkInaccuracy
	MarkMistake
	MarkBlunder
)

// ReviewOptions set a review's budget.
type ReviewOptions struct {
	// Nodes is the most positions searched for each ply (0: DefaultReviewNodes).
	Nodes int64
	// Depth is the deepest iteration for each ply (0: the budget decides).
	Depth int
}

// DefaultReviewNodes is the budget per ply of a review when none is set
// (Halma, whose positions cost more to search, takes a quarter of it).
const DefaultReviewNodes = 200_000

// PlyReview is the review of one ply of a game.
type PlyReview struct {
	Ply    int    // the ply's index in the game, from 0
	Seat   int    // the seat that played it
	Played string // the move played, as rules.Move.Text writes it
	// Best is the engine's best move in the position before the ply, as
	// rules.Move.Text writes it (equal to Played when the move played was
	// the best one found).
	Best string
	// Chances are each seat's winning chances after the ply, from 0 to 1
	// (with two seats they add up to 1).
	Chances []float64
	// Before and After are the mover's winning chances before the ply
	// (with the best move) and after the move played.
	Before, After float64
	// Eval is the evaluation after the ply from the first seat's side, in
	// the engine's units (hundredths of a man in draughts).
	Eval int
	Mark Mark
	// Material is the material the move played loses against the best
	// move within the searched depth, in men (0 when none, and for moves
	// not marked).
	Material int
	Nodes    int64 // positions searched for this ply
}

// SeatReview sums up one seat's moves.
type SeatReview struct {
	Accuracy                         float64 // 0 to 100
	Inaccuracies, Mistakes, Blunders int
	Worst                            int // the ply of the seat's worst move, -1 when none lost anything
}

// Review is an engine's review of a whole game.
type Review struct {
	Plies []PlyReview
	Seats []SeatReview
}

// The marks' thresholds: the mover's winning chances lost by a move, in
// percentage points (lichess's, on chances from 0 to 100).
const (
	InaccuracyLoss = 10.0
	MistakeLoss    = 20.0
	BlunderLoss    = 30.0
)

// The scales of the winning chances (see the package doc).
const (
	// draughtsScale: an evaluation e of a draughts game or Ultradamas
	// (hundredths of a man) gives the side to move 1/(1+exp(-e/100)):
	// even is 50%, a man up (about +105 with the tempo) 74%, two men up
	// 89%.
	draughtsScale = 100.0
	// halmaScale: Halma's evaluation is the difference of the seats'
	// distances to their target camps (halmaEngine.cost); a seat's chances
	// are the softmax of -cost/halmaScale over the seats, with two seats
	// the same logistic of the evaluation as draughts. A good move gains
	// about 150 on 16x16 (the tempo of the side that just moved), so a
	// move wasted costs about 9 points from an even race and two wasted
	// moves an inaccuracy or more.
	halmaScale = 400.0
)

// String returns the mark's sign: "?!", "?", "??", or "" for none.
func (m Mark) String() string {
	switch m {
	case MarkInaccuracy:
		return "?!"
	case MarkMistake:
		return "?"
	case MarkBlunder:
		return "??"
	}
	return ""
}

// markOf is the mark of a move that lost loss percentage points.
func markOf(loss float64) Mark {
	switch {
	case loss >= BlunderLoss:
		return MarkBlunder
	case loss >= MistakeLoss:
		return MarkMistake
	case loss >= InaccuracyLoss:
		return MarkInaccuracy
	}
	return MarkNone
}

// Accuracy is the accuracy of a move that lost loss percentage points of
// the mover's winning chances (lichess's formula): 100 for no loss, 64 for
// 10 points, 40 for 20, 25 for 30, 0 from about 80.
func Accuracy(loss float64) float64 {
	a := 103.1668*math.Exp(-0.04354*loss) - 3.1669
	return min(100, max(0, a))
}

// reviewOut is what a review's search reports besides its Result.
type reviewOut struct {
	// balance is the side to move's pieces minus the opponent's at the
	// end of the best line (the table's moves, then the captures in
	// progress played out).
	balance int
	// played (four-player Halma) names a root move whose score the search
	// reports too: playedScore, when playedFound.
	played      string
	playedScore int
	playedFound bool
}

// lineBalance plays first in p, then the table's best moves as far as
// they go, then the captures in progress, and counts the pieces for p's
// side to move.
func lineBalance[P comparable, M comparable, E engine[P, M]](s *searcher[P, M, E], p P, first M, count func(*P) int) int {
	q := s.e.apply(&p, &first)
	sign := -1
	seen := map[uint64]bool{s.e.hash(&p): true}
	var buf []M
	for range maxPly {
		if _, ended := s.e.over(&q); ended {
			break
		}
		h := s.e.hash(&q)
		if seen[h] {
			break
		}
		seen[h] = true
		ent, ok := s.tt.probe(h)
		buf = s.e.moves(&q, buf)
		if !ok || ent.best == 0 || int(ent.best) > len(buf) {
			break
		}
		q = s.e.apply(&q, &buf[ent.best-1])
		sign = -sign
	}
	budget := 4096
	return sign * settle(s.e, &q, count, 12, &budget)
}

// settle is count(p) once the captures in progress are played out, both
// sides taking what is best for them in pieces, for at most depth plies
// and budget positions.
func settle[P comparable, M comparable, E engine[P, M]](e E, p *P, count func(*P) int, depth int, budget *int) int {
	*budget--
	moves := e.moves(p, nil)
	if depth == 0 || *budget <= 0 || len(moves) == 0 || !e.capture(&moves[0]) {
		return count(p)
	}
	best := -infinity
	for i := range moves {
		c := e.apply(p, &moves[i])
		best = max(best, -settle(e, &c, count, depth-1, budget))
	}
	return best
}

func draughtsCount(p *draughts.Position) int {
	own, opp := p.White, p.Black
	if p.ToMove == draughts.Black {
		own, opp = opp, own
	}
	return bits.OnesCount32(own) - bits.OnesCount32(opp)
}

func ultraCount(p *ultradamas.Position) int {
	occ, _, _ := p.Bitboards()
	t := int(p.Turn())
	return bits.OnesCount64(occ[t]) - bits.OnesCount64(occ[t^1])
}

// reviewer reviews one game.
type reviewer struct {
	pl    *Player
	ctx   context.Context
	o     ReviewOptions
	scale float64
}

// look is what the review knows of a position: its value and the
// balance of pieces at the end of the best line, both for seat, the best
// move, and the positions searched.
type look struct {
	seat    int
	score   int
	balance int
	best    string
	nodes   int64
}

// scoreFor and balanceFor are l's values for seat (two seats).
func (l look) scoreFor(seat int) int {
	if l.seat == seat {
		return l.score
	}
	return -l.score
}

func (l look) balanceFor(seat int) int {
	if l.seat == seat {
		return l.balance
	}
	return -l.balance
}

// chance is the winning chances of a side whose evaluation is score.
func (rv *reviewer) chance(score int) float64 {
	switch {
	case score > mateZone:
		return 1
	case score < -mateZone:
		return 0
	}
	return 1 / (1 + math.Exp(-float64(score)/rv.scale))
}

// search searches s at the review's budget, with no time limit, taking
// its turn for a table like any search of the context's owner.
func (rv *reviewer) search(s rules.State, played string) (Result, reviewOut, error) {
	out := reviewOut{played: played}
	depth := rv.o.Depth
	if depth <= 0 || depth > maxPly-8 {
		depth = maxPly - 8
	}
	o := Options{Level: MaxLevel - 1, Depth: depth, Nodes: rv.o.Nodes, untimed: true, out: &out}
	tt, w, ok := rv.pl.turns.enqueue(OwnerOf(rv.ctx))
	if !ok {
		g, err := rv.pl.turns.wait(rv.ctx, w)
		if err != nil {
			return Result{}, out, err
		}
		tt = g.t
	}
	if tt == nil {
		tt = newTable(rv.pl.cfg.TableMB)
	}
	defer rv.pl.turns.release(tt)
	r, err := rv.pl.search(rv.ctx, s, o, tt)
	if err == nil && rv.ctx.Err() != nil {
		err = rv.ctx.Err()
	}
	return r, out, err
}

// terminal is the look of a finished game, for seat 0.
func terminal(s rules.State, out rules.Outcome) look {
	l := look{seat: 0}
	switch out.Winner {
	case -1:
	case 0:
		l.score = mate
	default:
		l.score = -mate
	}
	for _, p := range s.View().Pieces {
		if p.Seat == 0 {
			l.balance++
		} else {
			l.balance--
		}
	}
	return l
}

// analyse is the look of s (two seats): a finished game's result, a
// forced move's look through it, or a search.
func (rv *reviewer) analyse(s rules.State, forced int) (look, error) {
	if out := s.Outcome(); out.Over {
		return terminal(s, out), nil
	}
	turn := s.Turn()
	if turn < 0 {
		return look{}, rules.Errorf(rules.ErrNotNow, "no one may move yet")
	}
	if legal := s.Moves(); len(legal) == 1 && forced < 64 {
		child, _, err := s.Play(legal[0].Text)
		if err != nil {
			return look{}, err
		}
		c, err := rv.analyse(child, forced+1)
		if err != nil {
			return look{}, err
		}
		return look{seat: turn, score: c.scoreFor(turn), balance: c.balanceFor(turn), best: legal[0].Text, nodes: c.nodes}, nil
	}
	r, out, err := rv.search(s, "")
	if err != nil {
		return look{}, err
	}
	return look{seat: turn, score: r.Score, balance: out.balance, best: r.Move.Text, nodes: r.Nodes}, nil
}

// Review reviews a game: positions[i] is the state in which played[i]
// was played (the caller replays the game, huffs and formations included),
// and each position is searched at the budget of o, with no time limit:
// the same game and options give the same review in every process. It
// takes turns with the other searches like any search of ctx's owner
// (WithOwner), one turn per position searched.
//
// With two seats the value after a move is the next position's search
// (the opponent's value, negated), so that each position is searched
// once; a move found worse than the engine's best by the inaccuracy
// threshold or more is checked by searching the position after the best
// move in the same way, so that the two are compared at the same depth.
func (pl *Player) Review(ctx context.Context, positions []rules.State, played []rules.Move, o ReviewOptions) (Review, error) {
	if len(positions) != len(played) {
		return Review{}, rules.Errorf(rules.ErrBadPosition, "review: %d positions for %d moves", len(positions), len(played))
	}
	if len(positions) == 0 {
		return Review{}, nil
	}
	g := positions[0].Game()
	rv := &reviewer{pl: pl, ctx: ctx, o: o, scale: draughtsScale}
	if rv.o.Nodes <= 0 {
		rv.o.Nodes = DefaultReviewNodes
	}
	if g.ID() == "halma" {
		rv.scale = halmaScale
		if o.Nodes <= 0 {
			rv.o.Nodes = DefaultReviewNodes / 4
		}
	}
	n := len(positions)
	afters := make([]rules.State, n)
	texts := make([]string, n)
	for i, s := range positions {
		if s.Turn() < 0 {
			return Review{}, rules.Errorf(rules.ErrNotNow, "review: no one may move in position %d", i)
		}
		a, m, err := s.Play(played[i].Text)
		if err != nil {
			return Review{}, err
		}
		afters[i], texts[i] = a, m.Text
	}
	seats := len(g.Seats())
	r := Review{Plies: make([]PlyReview, n), Seats: make([]SeatReview, seats)}
	counted := make([]bool, n)
	var err error
	if seats == 2 {
		err = rv.two(positions, afters, texts, r.Plies, counted)
	} else {
		err = rv.many(positions, afters, texts, r.Plies, counted)
	}
	if err != nil {
		return Review{}, err
	}
	sum := make([]float64, seats)
	moves := make([]int, seats)
	worst := make([]float64, seats)
	for s := range r.Seats {
		r.Seats[s].Worst = -1
	}
	for i, p := range r.Plies {
		if !counted[i] || p.Seat < 0 || p.Seat >= seats {
			continue
		}
		sr := &r.Seats[p.Seat]
		loss := 100 * (p.Before - p.After)
		sum[p.Seat] += Accuracy(loss)
		moves[p.Seat]++
		switch p.Mark {
		case MarkInaccuracy:
			sr.Inaccuracies++
		case MarkMistake:
			sr.Mistakes++
		case MarkBlunder:
			sr.Blunders++
		}
		if loss > worst[p.Seat] {
			worst[p.Seat], sr.Worst = loss, i
		}
	}
	for s := range r.Seats {
		r.Seats[s].Accuracy = 100
		if moves[s] > 0 {
			r.Seats[s].Accuracy = sum[s] / float64(moves[s])
		}
	}
	return r, nil
}

// ReviewMove reviews one move in s as Review reviews a ply of a game:
// its Mark is MarkNone when the move is within the inaccuracy threshold
// of the engine's best (the web board's "find the better move").
func (pl *Player) ReviewMove(ctx context.Context, s rules.State, move string, o ReviewOptions) (PlyReview, error) {
	_, m, err := s.Play(move)
	if err != nil {
		return PlyReview{}, err
	}
	r, err := pl.Review(ctx, []rules.State{s}, []rules.Move{m}, o)
	if err != nil {
		return PlyReview{}, err
	}
	return r.Plies[0], nil
}

// two reviews a game of two seats, from its last ply back, so that each
// position's look serves as the value after the ply before it.
func (rv *reviewer) two(positions, afters []rules.State, texts []string, plies []PlyReview, counted []bool) error {
	n := len(positions)
	var next look
	for i := n - 1; i >= 0; i-- {
		s := positions[i]
		mover := s.Turn()
		pr := PlyReview{Ply: i, Seat: mover, Played: texts[i], Best: texts[i]}
		var after look
		if i+1 < n && afters[i].FEN() == positions[i+1].FEN() {
			after = next
		} else {
			var err error
			if after, err = rv.analyse(afters[i], 0); err != nil {
				return err
			}
			pr.Nodes += after.nodes
		}
		pr.After = rv.chance(after.scoreFor(mover))
		pr.Before = pr.After
		pr.Eval = after.scoreFor(0)
		pr.Chances = []float64{rv.chance(after.scoreFor(0)), rv.chance(after.scoreFor(1))}
		before := look{seat: mover, score: after.scoreFor(mover), balance: after.balanceFor(mover), best: texts[i]}
		if len(s.Moves()) > 1 {
			counted[i] = true
			var err error
			if before, err = rv.analyse(s, 0); err != nil {
				return err
			}
			pr.Nodes += before.nodes
		}
		if before.best != texts[i] {
			pr.Best = before.best
			pr.Before = max(pr.After, rv.chance(before.scoreFor(mover)))
			if 100*(pr.Before-pr.After) >= InaccuracyLoss {
				// Compare the best move with the move played at the same
				// depth: one ply in, searched at the same budget.
				child, _, err := s.Play(before.best)
				if err != nil {
					return err
				}
				b, err := rv.analyse(child, 0)
				if err != nil {
					return err
				}
				pr.Nodes += b.nodes
				pr.Before = max(pr.After, rv.chance(b.scoreFor(mover)))
				pr.Mark = markOf(100 * (pr.Before - pr.After))
				if pr.Mark != MarkNone {
					pr.Material = max(0, b.balanceFor(mover)-after.balanceFor(mover))
				}
			}
		}
		plies[i] = pr
		next = before
	}
	return nil
}

// many reviews a game of more than two seats (Halma): each position is
// searched with the move played scored beside the best one, and the
// chances come from the paranoid search's score (see the package doc).
func (rv *reviewer) many(positions, afters []rules.State, texts []string, plies []PlyReview, counted []bool) error {
	for i, s := range positions {
		mover := s.Turn()
		pr := PlyReview{Ply: i, Seat: mover, Played: texts[i], Best: texts[i]}
		static, eval, err := halmaChances(afters[i], rv.scale)
		if err != nil {
			return err
		}
		pr.Eval = eval
		pr.After = static[mover]
		pr.Before = pr.After
		if len(s.Moves()) > 1 {
			counted[i] = true
			r, out, err := rv.search(s, texts[i])
			if err != nil {
				return err
			}
			pr.Nodes = r.Nodes
			others := float64(len(static) - 1)
			chance := func(v int) float64 {
				switch {
				case v > mateZone:
					return 1
				case v < -mateZone:
					return 0
				}
				return 1 / (1 + others*math.Exp(-float64(v)/rv.scale))
			}
			if !afters[i].Outcome().Over {
				pr.Before = chance(r.Score)
				pr.After = pr.Before
				if r.Move.Text != texts[i] && out.playedFound {
					pr.After = chance(out.playedScore)
				}
			}
			if r.Move.Text != texts[i] {
				pr.Best = r.Move.Text
				pr.Before = max(pr.Before, pr.After)
				pr.Mark = markOf(100 * (pr.Before - pr.After))
			}
		}
		// The mover's chances from the search, the others sharing the
		// rest as their distances do.
		pr.Chances = make([]float64, len(static))
		rest := 1 - static[mover]
		for seat, c := range static {
			switch {
			case seat == mover:
				pr.Chances[seat] = pr.After
			case rest > 0:
				pr.Chances[seat] = c / rest * (1 - pr.After)
			}
		}
		plies[i] = pr
	}
	return nil
}

// halmaChances are the seats' chances in s by its evaluation alone: the
// softmax of -cost/scale over the seats still playing (the winner's are 1
// once the game is over); eval is seat 0's value as the paranoid search
// counts it, the others' mean cost minus its own.
func halmaChances(s rules.State, scale float64) ([]float64, int, error) {
	st, leaveHome, err := halmaStateOf(s)
	if err != nil {
		return nil, 0, err
	}
	p := halmaPos{p: st.Position(), turns: halmaTurns(st)}
	e := newHalmaEngine(p.p, leaveHome)
	seats := p.p.Players()
	chances := make([]float64, seats)
	costs := make([]int, seats)
	for seat := range seats {
		costs[seat] = e.cost(&p, seat)
	}
	eval := -costs[0]
	for seat := 1; seat < seats; seat++ {
		eval += costs[seat] / (seats - 1)
	}
	if out := s.Outcome(); out.Over {
		if out.Winner >= 0 && out.Winner < seats {
			chances[out.Winner] = 1
		}
		return chances, eval, nil
	}
	low := math.MaxInt
	for seat := range seats {
		if !p.p.Retired(seat) {
			low = min(low, costs[seat])
		}
	}
	total := 0.0
	for seat := range seats {
		if !p.p.Retired(seat) {
			chances[seat] = math.Exp(-float64(costs[seat]-low) / scale)
			total += chances[seat]
		}
	}
	for seat := range chances {
		chances[seat] /= total
	}
	return chances, eval, nil
}

// halmaStateOf returns the Halma state behind s and its leave-home rule.
func halmaStateOf(s rules.State) (*halma.State, int, error) {
	st, ok := s.(*halma.State)
	if !ok {
		hg, err := halma.NewFromOptions(s.Game().Options())
		if err != nil {
			return nil, 0, err
		}
		if st, err = hg.LoadState(s.FEN()); err != nil {
			return nil, 0, err
		}
	}
	leaveHome := 0
	if g, ok := st.Game().(halma.Game); ok {
		leaveHome = g.Variant().LeaveHome
	}
	return st, leaveHome, nil
}
