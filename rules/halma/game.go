package halma

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/boardgamebot/bot/rules"
)

// Game is Halma with its variant fixed; it implements rules.Game.
type Game struct{ v Variant }

// New returns the game of variant v, or a rules.ErrBadOption error.
func New(v Variant) (Game, error) {
	if err := v.Check(); err != nil {
		return Game{}, err
	}
	return Game{v}, nil
}

// NewFromOptions builds the game from the registry's options: size
// (8, 10, 16; default 16), players (2, 4; default 2) and leavehome (a
// number of moves, off, or auto for the page's default for the size;
// default auto).
func NewFromOptions(opts map[string]string) (Game, error) {
	v := Variant{Size: 16, Players: 2}
	var ok bool
	if s, has := opts["size"]; has {
		if v.Size, ok = number(s); !ok {
			return Game{}, rules.Errorc(rules.ErrBadOption, rules.CodeBadValue, []string{"Key", "size", "Value", short(s), "Choices", "8, 10, 16"}, "halma size=%q is not allowed (choose 8, 10 or 16)", short(s))
		}
	}
	if s, has := opts["players"]; has {
		if v.Players, ok = number(s); !ok {
			return Game{}, rules.Errorc(rules.ErrBadOption, rules.CodeBadValue, []string{"Key", "players", "Value", short(s), "Choices", "2, 4"}, "halma players=%q is not allowed (choose 2 or 4)", short(s))
		}
	}
	switch s, has := opts["leavehome"]; {
	case !has || s == "auto" || s == "":
		if v.Players == 2 {
			v.LeaveHome = DefaultLeaveHome(v.Size)
		}
	case s == "off" || s == "0":
		v.LeaveHome = 0
	default:
		if v.LeaveHome, ok = number(s); !ok {
			return Game{}, rules.Errorc(rules.ErrBadOption, rules.CodeBadLeaveHome, []string{"Value", short(s)}, "halma leavehome=%q is not allowed (a number of moves, off or auto)", short(s))
		}
	}
	return New(v)
}

// Variant is the game's variant.
func (g Game) Variant() Variant { return g.v }

// ID returns "halma".
func (g Game) ID() string { return "halma" }

// Name returns "Halma".
func (g Game) Name() string { return "Halma" }

// Options returns size, players and leavehome ("off" or the number).
func (g Game) Options() map[string]string {
	lh := "off"
	if g.v.LeaveHome > 0 {
		lh = strconv.Itoa(g.v.LeaveHome)
	}
	return map[string]string{
		"leavehome": lh,
		"players":   strconv.Itoa(g.v.Players),
		"size":      strconv.Itoa(g.v.Size),
	}
}

// Seats returns "Player 1" to "Player N" in turn order: seat 0 in a1's
// corner, then (four players) the top-left, top-right and bottom-right
// corners; with two players seat 1 is in the top-right corner.
func (g Game) Seats() []string {
	out := make([]string, g.v.Players)
	for i := range out {
		out[i] = fmt.Sprintf("Player %d", i+1)
	}
	return out
}

// Start returns the initial state with seat first to move (the caller
// draws it; taken modulo the number of players).
func (g Game) Start(first int) rules.State { return g.StartState(first) }

// StartState is Start with the concrete type.
func (g Game) StartState(first int) *State {
	p := g.v.Start(first)
	return &State{game: g, pos: p, start: p, first: int(p.turn), out: rules.Outcome{Winner: -1}}
}

// Load reads a position written by FEN; its board and players must be
// the game's.
func (g Game) Load(fen string) (rules.State, error) {
	s, err := g.LoadState(fen)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// LoadState is Load with the concrete type.
func (g Game) LoadState(fen string) (*State, error) {
	p, err := ParseFEN(fen)
	if err != nil {
		return nil, err
	}
	if p.Size() != g.v.Size || p.Players() != g.v.Players {
		return nil, rules.Errorf(rules.ErrBadPosition, "bad halma position %q: it is for %dx%d with %d players, the game is %dx%d with %d",
			short(fen), p.Size(), p.Size(), p.Players(), g.v.Size, g.v.Size, g.v.Players)
	}
	s := &State{game: g, pos: p, start: p, first: int(p.turn), setup: p.FEN(), out: rules.Outcome{Winner: -1}}
	if p.won != 0 {
		s.out = wonOutcome(p)
	}
	return s, nil
}

// wonOutcome is the outcome of a won position: the winner filled its
// target camp, or (four players) the others left.
func wonOutcome(p Position) rules.Outcome {
	reason := rules.CampFilled
	if !p.hasWon(p.Winner()) {
		reason = rules.OthersLeft
	}
	return rules.Outcome{Over: true, Winner: p.Winner(), Reason: reason}
}

// State is a game of Halma in progress; it implements rules.State,
// rules.Perfter, rules.Recorder and (four players) rules.Retirer. It is
// immutable.
type State struct {
	game  Game
	pos   Position
	first int    // the seat that moved first
	setup string // the starting FEN when the game did not start from the initial position
	turns [4]int // turns each seat has taken since the start
	out   rules.Outcome
	start Position // the position the record starts from
	// hist holds the moves and retirements since start, the last first
	// (for History and Record; the rules need none of the past). A few
	// bytes a ply, shared between a state and the states played from it.
	hist *step
}

// step is one move or retirement of a game's record, linked to the one
// before it.
type step struct {
	prev *step
	last Move  // the move
	left uint8 // the seat that left the game, plus 1; 0 when last is a move
}

// Game returns the game.
func (s *State) Game() rules.Game { return s.game }

// Position is the position, for the typed API.
func (s *State) Position() Position { return s.pos }

// First is the seat that moved first.
func (s *State) First() int { return s.first }

// Moved returns the number of moves seat has made since the start (the
// leave-home rule counts them).
func (s *State) Moved(seat int) int { return s.turns[seat&3] }

// History returns the moves played since the start, in order (not the
// retirements: see Retire).
func (s *State) History() []Move {
	var out []Move
	for _, st := range s.steps() {
		if st.left == 0 {
			out = append(out, st.last)
		}
	}
	return out
}

// steps returns the moves and retirements since the start, in order.
func (s *State) steps() []*step {
	var rev []*step
	for t := s.hist; t != nil; t = t.prev {
		rev = append(rev, t)
	}
	slices.Reverse(rev)
	return rev
}

// Retire implements rules.Retirer (see RetireSeat).
func (s *State) Retire(seat int) (rules.State, error) {
	n, err := s.RetireSeat(seat)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// RetireSeat takes seat out of a four-player game, as Position.Retire
// does: its pieces leave the board, the turn order skips it, and when one
// player is left, that player has won ("the others left"). Errors are
// rules.ErrNotNow (a two-player game, a seat that has left already) and
// rules.ErrGameOver errors.
func (s *State) RetireSeat(seat int) (*State, error) {
	if s.out.Over {
		return nil, rules.Errorc(rules.ErrGameOver, rules.CodeGameOver, nil, "the game is over (%s)", s.out.Reason)
	}
	p, err := s.pos.Retire(seat)
	if err != nil {
		return nil, err
	}
	n := &State{game: s.game, pos: p, first: s.first, setup: s.setup, turns: s.turns, start: s.start, hist: &step{prev: s.hist, left: uint8(seat + 1)}, out: rules.Outcome{Winner: -1}}
	if p.won != 0 {
		n.out = wonOutcome(p)
	}
	return n, nil
}

// FEN is the position in the page's format.
func (s *State) FEN() string { return s.pos.FEN() }

// Turn is the seat to move, or -1 when the game is over.
func (s *State) Turn() int {
	if s.out.Over {
		return -1
	}
	return int(s.pos.turn)
}

// Moves returns the legal moves sorted by Text (a single pass when the
// player has no move; none when the game is over).
func (s *State) Moves() []rules.Move {
	if s.out.Over {
		return []rules.Move{}
	}
	ms := s.pos.Moves()
	out := make([]rules.Move, len(ms))
	var t *jumpTree
	for i, m := range ms {
		if m.IsPass() {
			out[i] = rules.Move{Text: "pass", Pass: true}
			continue
		}
		if t == nil || t.from != m.From {
			t = s.pos.tree(m.From)
		}
		out[i] = ruleMove(m, t.path(m.To))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	return out
}

// ruleMove converts m to the common view, with its path.
func ruleMove(m Move, path []Square) rules.Move {
	if m.IsPass() {
		return rules.Move{Text: "pass", Pass: true}
	}
	rm := rules.Move{Text: m.String(), From: m.From.Rules(), To: m.To.Rules()}
	for _, q := range path {
		rm.Path = append(rm.Path, q.Rules())
	}
	return rm
}

// Play plays the move text names (see Position.ParseMove).
func (s *State) Play(text string) (rules.State, rules.Move, error) {
	next, m, err := s.PlayMove(text)
	if err != nil {
		return nil, rules.Move{}, err
	}
	return next, m, nil
}

// PlayMove is Play with the concrete type.
func (s *State) PlayMove(text string) (*State, rules.Move, error) {
	if s.out.Over {
		return nil, rules.Move{}, rules.Errorc(rules.ErrGameOver, rules.CodeGameOver, nil, "the game is over (%s)", s.out.Reason)
	}
	m, err := s.pos.ParseMove(text)
	if err != nil {
		return nil, rules.Move{}, err
	}
	return s.after(m), ruleMove(m, s.pos.Path(m)), nil
}

// after returns the state after the legal move m.
func (s *State) after(m Move) *State {
	mover := int(s.pos.turn)
	n := &State{game: s.game, pos: s.pos.Play(m), first: s.first, setup: s.setup, turns: s.turns, start: s.start, hist: &step{prev: s.hist, last: m}, out: rules.Outcome{Winner: -1}}
	n.turns[mover]++
	lh := s.game.v.LeaveHome
	switch {
	case n.pos.won != 0:
		n.out = wonOutcome(n.pos)
	case lh > 0 && n.turns[mover] == lh && !n.pos.pieces[mover].And(n.pos.Home(mover)).Empty():
		n.out = rules.Outcome{Over: true, Winner: (mover + 1) % s.game.v.Players,
			Reason: rules.LeftHome, N: lh}
	}
	return n
}

// Outcome reports a won camp or a leave-home loss. Draws are by agreement
// only, which the caller handles.
func (s *State) Outcome() rules.Outcome { return s.out }

// Perft counts the leaves of the move tree (Position.Perft: no leave-home
// rule).
func (s *State) Perft(depth int) uint64 { return s.pos.Perft(depth) }

// View is the position for pictures: home camps per seat, pieces, the
// seat to move and the pieces that can move.
func (s *State) View() rules.View {
	p := s.pos
	v := rules.View{Size: p.Size(), Turn: s.Turn()}
	for seat := 0; seat < p.Players(); seat++ {
		var camp []rules.Square
		for _, q := range p.Home(seat).Squares() {
			camp = append(camp, q.Rules())
		}
		v.Camps = append(v.Camps, camp)
		for _, q := range p.pieces[seat].Squares() {
			v.Pieces = append(v.Pieces, rules.Piece{Square: q.Rules(), Seat: seat, Level: 1})
		}
	}
	if !s.out.Over {
		var movable Board
		for _, m := range p.Moves() {
			if !m.IsPass() {
				movable = movable.With(m.From)
			}
		}
		for _, q := range movable.Squares() {
			v.Movable = append(v.Movable, q.Rules())
		}
	}
	return v
}
