package draughts

import (
	"math/bits"
	"slices"

	"github.com/boardgamebot/bot/rules"
)

// Ply is one move of a game record, with the huff that came before it.
type Ply struct {
	Move Move
	// Huffed is the opponent's piece the mover huffed before moving, or NoSquare.
	Huffed Square
}

// Game is the record of a whole game: the start, the moves, the counters
// behind the automatic draws and the huffing rights. A Game is a value:
// Play, Huff, Resign and AgreeDraw return a new Game and leave the receiver
// as it was. Make one with NewGame or ParsePDN; the zero Game is not a
// record.
type Game struct {
	v       Variant
	start   Position
	plies   []Ply
	history []Position // history[i] is the position before plies[i], after it the current one
	cur     Position   // the position now (after a pending huff)
	huffed  Square     // the piece huffed in cur, before the next move
	// kingRun counts the consecutive moves by kings without a capture.
	kingRun int
	// strongMoves counts the moves of the side with three kings against a
	// lone king, from when one of the three stood on the long diagonal.
	strongMoves int
	strongSide  Color
	counting    bool
	// huffable are the opponent's pieces the side to move may huff.
	huffable uint32
	final    rules.Outcome // set by Resign and AgreeDraw
	// past are the positions before start that the repetition rule still
	// counts: set by Restore, which starts a record at a snapshot.
	past []Position
}

// NewGame starts a record of variant v from position start.
func NewGame(v Variant, start Position) Game {
	g := Game{v: v, start: start, history: []Position{start}, cur: start, huffed: NoSquare}
	g.updateStrong(start, start.ToMove)
	return g
}

// Variant returns the game's variant.
func (g Game) Variant() Variant { return g.v }

// Start returns the position the game started from.
func (g Game) Start() Position { return g.start }

// Position returns the current position.
func (g Game) Position() Position { return g.cur }

// Plies returns the moves played so far (a fresh slice).
func (g Game) Plies() []Ply { return slices.Clone(g.plies) }

// Before returns the position in which ply i was played (after its huff).
func (g Game) Before(i int) Position {
	p := g.history[i]
	if i < len(g.plies) && g.plies[i].Huffed != NoSquare {
		p = removePiece(p, g.plies[i].Huffed)
	} else if i == len(g.plies) {
		p = g.cur
	}
	return p
}

// Repetitions returns how many times the current position has occurred.
func (g Game) Repetitions() int {
	n := 0
	for _, p := range g.past {
		if p == g.cur {
			n++
		}
	}
	for _, p := range g.history {
		if p == g.cur {
			n++
		}
	}
	return n
}

// Moves returns the legal moves now: none when the game is over, whether
// by resignation, agreement, an automatic draw or a huff that took a
// side's last piece.
func (g Game) Moves() []Move {
	if g.final.Over || g.cur.Pieces(White) == 0 || g.cur.Pieces(Black) == 0 || g.autoDraw().Over {
		return nil
	}
	return g.v.Moves(g.cur)
}

// Huffable returns the opponent's pieces the side to move may huff now.
func (g Game) Huffable() uint32 {
	if g.Outcome().Over {
		return 0
	}
	return g.huffable
}

// Play plays m, which must be one of Moves() (compared with Same); the
// error is rules.ErrIllegal or rules.ErrGameOver.
func (g Game) Play(m Move) (Game, error) {
	if out := g.Outcome(); out.Over {
		return g, rules.Errorc(rules.ErrGameOver, rules.CodeGameOver, nil, "the game is over (%s)", out.Reason)
	}
	legal := g.v.Moves(g.cur)
	found := false
	for _, l := range legal {
		if Same(l, m) {
			m, found = l, true
			break
		}
	}
	if !found {
		return g, rules.Errorc(rules.ErrIllegal, rules.CodeNotLegal, []string{"Move", g.v.MoveText(m)}, "%s is not a legal move", g.v.MoveText(m))
	}
	before := g.cur
	next := g.v.Apply(before, m)
	g.huffable = 0
	if g.v.Huff {
		most := 0
		all := g.v.allCaptures(before)
		for _, s := range all {
			most = max(most, s.Count())
		}
		if most > 0 && m.Count() < most {
			for _, s := range all {
				if s.Count() == most {
					f := s.From
					if f == m.From {
						f = m.To
					}
					g.huffable |= 1 << f
				}
			}
		}
	}
	if before.Kings&(1<<m.From) != 0 && m.Captured == 0 {
		g.kingRun++
	} else {
		g.kingRun = 0
	}
	g.plies = append(slices.Clip(g.plies), Ply{Move: m, Huffed: g.huffed})
	g.history = append(slices.Clip(g.history), next)
	g.cur, g.huffed = next, NoSquare
	g.updateStrong(next, before.ToMove)
	return g, nil
}

// Huff removes the opponent's piece on f, which must be in Huffable(); the
// huffer then plays its move. The error is rules.ErrNotNow.
func (g Game) Huff(f Square) (Game, error) {
	if f >= 32 || g.Huffable()&(1<<f) == 0 {
		return g, rules.Errorc(rules.ErrNotNow, rules.CodeNoHuff, []string{"Square", g.v.Rules(f % 32).String()}, "no huff on %s now", g.v.Rules(f%32))
	}
	g.cur = removePiece(g.cur, f)
	g.huffed, g.huffable = f, 0
	return g, nil
}

func removePiece(p Position, f Square) Position {
	b := uint32(1) << f
	p.White &^= b
	p.Black &^= b
	p.Kings &^= b
	return p
}

// Resign ends the game: side c resigns.
func (g Game) Resign(c Color) Game {
	if !g.Outcome().Over {
		g.final = rules.Outcome{Over: true, Winner: int(c.Other()), Reason: rules.Resigned}
	}
	return g
}

// AgreeDraw ends the game in a draw by agreement.
func (g Game) AgreeDraw() Game {
	if !g.Outcome().Over {
		g.final = rules.Outcome{Over: true, Winner: -1, Reason: rules.DrawAgreed}
	}
	return g
}

// updateStrong keeps the count of the Spanish three-kings-against-one rule
// after a move by mover that led to p.
func (g *Game) updateStrong(p Position, mover Color) {
	strong, ok := threeKingsVsOne(p)
	if !ok || (g.counting && strong != g.strongSide) {
		g.counting, g.strongMoves = false, 0
		return
	}
	if !g.counting {
		if p.Pieces(strong)&longDiagonal != 0 {
			g.counting, g.strongSide, g.strongMoves = true, strong, 0
		}
		return
	}
	if mover == strong {
		g.strongMoves++
	}
}

// threeKingsVsOne reports the side with three kings when the other has a lone king.
func threeKingsVsOne(p Position) (Color, bool) {
	for _, c := range []Color{White, Black} {
		s, w := p.Pieces(c), p.Pieces(c.Other())
		if bits.OnesCount32(s) == 3 && s&^p.Kings == 0 && bits.OnesCount32(w) == 1 && w&p.Kings != 0 {
			return c, true
		}
	}
	return White, false
}

// Outcome reports whether the game is over and how: a side without pieces
// or without a legal move loses; then the automatic draws of the variant;
// resignation and agreed draws as recorded.
func (g Game) Outcome() rules.Outcome {
	if g.final.Over {
		return g.final
	}
	p := g.cur
	side := p.ToMove
	for _, c := range []Color{side, side.Other()} {
		if p.Pieces(c) == 0 {
			return rules.Outcome{Over: true, Winner: int(c.Other()), Reason: rules.NoPieces}
		}
	}
	if g.huffable == 0 && len(g.v.Moves(p)) == 0 {
		return rules.Outcome{Over: true, Winner: int(side.Other()), Reason: rules.NoMove}
	}
	return g.autoDraw()
}

// autoDraw reports the automatic draws of the variant; it needs no move
// generation, so Moves can ask it before generating.
func (g Game) autoDraw() rules.Outcome {
	p := g.cur
	draw := func(reason rules.Reason, n int) rules.Outcome {
		return rules.Outcome{Over: true, Winner: -1, Reason: reason, N: n}
	}
	switch g.v.Draws {
	case SpanishDraws:
		if g.Repetitions() >= 3 {
			return draw(rules.Repetition, 0)
		}
		if g.kingRun >= 40 {
			return draw(rules.KingMoves, 40)
		}
		if g.counting && g.strongMoves >= 13 {
			return draw(rules.ThreeKings, 13)
		}
	case DamasDraws:
		w, b := bits.OnesCount32(p.White), bits.OnesCount32(p.Black)
		if (p.White|p.Black)&^p.Kings == 0 && w == b && w <= 2 {
			return draw(rules.FewKings, 0)
		}
	}
	return rules.Outcome{Winner: -1}
}
