package ultradamas

import (
	"sort"
	"strconv"

	"github.com/boardgamebot/bot/rules"
)

// Game is Ultradamas as a rules.Game. It has no options.
type Game struct{}

var (
	_ rules.Game     = Game{}
	_ rules.State    = (*State)(nil)
	_ rules.Former   = (*State)(nil)
	_ rules.Perfter  = (*State)(nil)
	_ rules.Recorder = (*State)(nil)
)

// ID returns "ultradamas".
func (Game) ID() string { return "ultradamas" }

// Name returns "Ultradamas".
func (Game) Name() string { return "Ultradamas" }

// Options returns an empty map: the game has no options.
func (Game) Options() map[string]string { return map[string]string{} }

// Seats returns "Red", "Black".
func (Game) Seats() []string { return []string{"Red", "Black"} }

// Start returns the formation phase: both seats pending, no one to move.
// first is ignored (Red always moves first).
func (Game) Start(first int) rules.State { return &State{} }

// Load reads a position in the FEN format (see Position.FEN) and returns a
// started game from it, with no history.
func (Game) Load(fen string) (rules.State, error) {
	p, err := ParseFEN(fen)
	if err != nil {
		return nil, err
	}
	return FromRecord(Record{Start: p}), nil
}

// State is an Ultradamas game as a rules.State: a formation phase, or a
// game in progress with its record. It is immutable.
type State struct {
	form    [2]uint64 // formations given so far (0: pending)
	started bool
	rec     Record     // never appended to in place
	pos     Position   // the current position
	keys    []Position // positions (keys) since the last capture or promotion
	out     rules.Outcome
}

// FromRecord returns the state at the end of a record (started).
func FromRecord(r Record) *State {
	s := &State{form: r.Formation, started: true, rec: r}
	s.rec.Moves = append([]Move(nil), r.Moves...)
	for _, p := range r.Positions() {
		if p.ply == 0 {
			s.keys = s.keys[:0]
		}
		s.keys = append(s.keys, p.Key())
		s.pos = p
	}
	s.judge()
	return s
}

func (s *State) judge() {
	reps := 0
	for _, k := range s.keys {
		if k == s.pos.Key() {
			reps++
		}
	}
	s.out = outcome(s.pos, reps)
}

// Position returns the current position (for a formation phase, the one
// the formations given so far and the default for the others make).
func (s *State) Position() Position {
	if !s.started {
		return s.formed()
	}
	return s.pos
}

func (s *State) formed() Position {
	f := s.form
	for i := range f {
		if f[i] == 0 {
			f[i] = DefaultFormation[i]
		}
	}
	return FromFormations(f[Red], f[Black])
}

// GameRecord returns the game so far (empty before the formations are done).
func (s *State) GameRecord() Record {
	r := s.rec
	r.Moves = append([]Move(nil), r.Moves...)
	return r
}

// Game returns Game{}.
func (s *State) Game() rules.Game { return Game{} }

// FEN returns the current position in the FEN format. In the formation
// phase it is the position of the formations given so far, with the
// default formation for the sides still pending.
func (s *State) FEN() string { return s.Position().FEN() }

// Turn is the seat to move, -1 in the formation phase and when the game
// is over.
func (s *State) Turn() int {
	if !s.started || s.out.Over {
		return -1
	}
	return int(s.pos.turn)
}

// Moves returns the legal moves sorted by text (none in the formation
// phase or when the game is over).
func (s *State) Moves() []rules.Move {
	if s.Turn() < 0 {
		return nil
	}
	var out []rules.Move
	for _, m := range s.pos.Moves(nil) {
		out = append(out, s.pos.RulesMove(m))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	return out
}

// RulesMove describes m, a legal move of p, as a rules.Move.
func (p Position) RulesMove(m Move) rules.Move {
	rm := rules.Move{Text: p.Text(m), From: m.First.From.Rules()}
	if m.First.Kind == Jump {
		rm.Path = append(rm.Path, m.First.From.Rules())
		for _, sq := range p.Route(m) {
			rm.Path = append(rm.Path, sq.Rules())
		}
	} else {
		rm.Path = append(rm.Path, m.First.From.Rules(), m.First.To.Rules())
		if m.Second.Kind != NoAction {
			rm.Path = append(rm.Path, m.Second.From.Rules(), m.Second.To.Rules())
		}
	}
	rm.To = rm.Path[len(rm.Path)-1]
	for b := m.Captured; b != 0; b &= b - 1 {
		rm.Captured = append(rm.Captured, first(b).Rules())
	}
	return rm
}

// Play parses text as a move of the page's notation, checks it against
// the legal moves and plays it.
func (s *State) Play(text string) (rules.State, rules.Move, error) {
	if !s.started {
		return nil, rules.Move{}, rules.Errorc(rules.ErrNotNow, rules.CodeNotStarted, nil, "the game has not started: %s must choose a formation", s.pendingNames())
	}
	if s.out.Over {
		return nil, rules.Move{}, rules.Errorc(rules.ErrGameOver, rules.CodeGameOver, nil, "the game is over (%s)", s.out.Reason)
	}
	m, err := s.pos.ParseMove(text)
	if err != nil {
		return nil, rules.Move{}, err
	}
	rm := s.pos.RulesMove(m)
	return s.play(m), rm, nil
}

// PlayMove plays m, which must be one of Position().Moves.
func (s *State) PlayMove(m Move) *State { return s.play(m) }

func (s *State) play(m Move) *State {
	n := &State{form: s.form, started: true, rec: s.rec}
	n.rec.Moves = append(append(make([]Move, 0, len(s.rec.Moves)+1), s.rec.Moves...), m)
	n.pos = s.pos.Apply(m)
	if n.pos.ply == 0 {
		n.keys = []Position{n.pos.Key()}
	} else {
		n.keys = append(append(make([]Position, 0, len(s.keys)+1), s.keys...), n.pos.Key())
	}
	n.judge()
	return n
}

// Outcome reports the end of the game.
func (s *State) Outcome() rules.Outcome {
	if !s.started {
		return rules.Outcome{Winner: -1}
	}
	return s.out
}

// View returns the position for pictures: seat 0 is Red.
func (s *State) View() rules.View {
	p := s.Position()
	v := rules.View{Size: 8, Turn: s.Turn()}
	for b := p.occ[0] | p.occ[1]; b != 0; b &= b - 1 {
		sq := first(b)
		side, level, carried, _ := p.Piece(sq)
		v.Pieces = append(v.Pieces, rules.Piece{Square: sq.Rules(), Seat: int(side), Level: level, Carries: carried})
	}
	if v.Turn >= 0 {
		for _, sq := range movers(p.Moves(nil)) {
			v.Movable = append(v.Movable, sq.Rules())
		}
	}
	return v
}

// Pending lists the seats that have not yet given a formation.
func (s *State) Pending() []int {
	var out []int
	if s.started {
		return out
	}
	for i, f := range s.form {
		if f == 0 {
			out = append(out, i)
		}
	}
	return out
}

func (s *State) pendingNames() string {
	var names []string
	for _, i := range s.Pending() {
		names = append(names, Side(i).String())
	}
	if len(names) == 2 {
		return "Red and Black"
	}
	if len(names) == 1 {
		return names[0]
	}
	return "no one"
}

// Form sets seat's formation: 12 squares of its first three ranks
// ("a1 c1 e1 ..."), or "default". The game starts when both have formed.
func (s *State) Form(seat int, squares string) (rules.State, error) {
	if seat < 0 || seat > 1 {
		return nil, rules.Errorc(rules.ErrBadOption, rules.CodeNoSeat, []string{"Seat", strconv.Itoa(seat)}, "no seat %d (0 is Red, 1 is Black)", seat)
	}
	if s.started {
		return nil, rules.Errorc(rules.ErrNotNow, rules.CodeStarted, nil, "the game has already started")
	}
	if s.form[seat] != 0 {
		return nil, rules.Errorc(rules.ErrNotNow, rules.CodeFormationChosen, nil, "%v has already chosen a formation", Side(seat))
	}
	f, err := ParseFormation(Side(seat), squares)
	if err != nil {
		return nil, err
	}
	n := &State{form: s.form}
	n.form[seat] = f
	if n.form[Red] != 0 && n.form[Black] != 0 {
		return FromRecord(NewRecord(n.form[Red], n.form[Black])), nil
	}
	return n, nil
}

// Perft counts the leaves of the move tree at depth from the current
// position; in the formation phase, from the position FEN shows (the
// default formation for the pending sides).
func (s *State) Perft(depth int) uint64 { return s.Position().Perft(depth) }

// Record writes the whole game as text (see Record.Text).
func (s *State) Record(meta rules.Meta) string { return s.rec.Text(meta) }
