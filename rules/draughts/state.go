package draughts

import (
	"context"
	"sort"
	"strings"

	"github.com/boardgamebot/bot/rules"
)

// VariantFor returns the variant of game id with the given options
// (missing options take their defaults: dame flying=yes, damas huff=no).
// Unknown games and options are rules.ErrBadOption errors.
func VariantFor(id string, opts map[string]string) (Variant, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	var v Variant
	allowed := ""
	switch id {
	case "spanish":
		v = Spanish
	case "damas":
		v, allowed = Damas, "huff"
	case "dame":
		v, allowed = Dame, "flying"
	default:
		return Variant{}, rules.Errorc(rules.ErrBadOption, rules.CodeUnknownGame, []string{"Game", clip(id), "Games", "spanish, damas, dame"}, "unknown game %q (spanish, damas, dame)", clip(id))
	}
	for typedKey, typedVal := range opts {
		k, val := strings.ToLower(typedKey), strings.ToLower(typedVal)
		if k != allowed || allowed == "" {
			return Variant{}, rules.Errorc(rules.ErrBadOption, rules.CodeNoOption, []string{"Game", id, "Key", clip(typedKey), "Keys", allowed}, "%s has no option %q", id, clip(typedKey))
		}
		if val != "yes" && val != "no" {
			return Variant{}, rules.Errorc(rules.ErrBadOption, rules.CodeBadValue, []string{"Key", k, "Value", clip(typedVal), "Choices", "yes, no"}, "%s=%q is not allowed (choose yes, no)", k, clip(typedVal))
		}
		switch k {
		case "huff":
			v.Huff = val == "yes"
		case "flying":
			v.Flying = val == "yes"
		}
	}
	return v, nil
}

// New returns the game id with the given options as a rules.Game.
func New(id string, opts map[string]string) (rules.Game, error) {
	v, err := VariantFor(id, opts)
	if err != nil {
		return nil, err
	}
	return Def{v}, nil
}

// Def is a draughts game with its options fixed; it implements rules.Game.
type Def struct{ V Variant }

// ID returns the game id.
func (d Def) ID() string { return d.V.ID }

// Name returns the game's name for people.
func (d Def) Name() string { return d.V.Name() }

// Options returns the options with their values.
func (d Def) Options() map[string]string { return d.V.Options() }

// Seats returns "White", "Black".
func (d Def) Seats() []string { return []string{"White", "Black"} }

// Start returns the initial state; White moves first whatever first is.
func (d Def) Start(first int) rules.State { return d.wrap(NewGame(d.V, Initial)) }

// Load reads a position in FEN.
func (d Def) Load(fen string) (rules.State, error) {
	p, err := d.V.ParseFEN(fen)
	if err != nil {
		return nil, err
	}
	return d.wrap(NewGame(d.V, p)), nil
}

// StateOf returns the rules.State of a game record (a HuffState for
// variants with huffing).
func StateOf(g Game) rules.State { return Def{g.v}.wrap(g) }

func (d Def) wrap(g Game) rules.State {
	if d.V.Huff {
		return HuffState{State{g}}
	}
	return State{g}
}

// State is a draughts game in progress as a rules.State; it also
// implements rules.Perfter and rules.Recorder.
type State struct{ g Game }

// HuffState is the State of a game with huffing; it implements rules.Huffer.
type HuffState struct{ State }

// Match returns the typed game record behind s.
func (s State) Match() Game { return s.g }

// Game returns the game definition.
func (s State) Game() rules.Game { return Def{s.g.v} }

// FEN returns the current position in FEN.
func (s State) FEN() string { return s.g.v.FEN(s.g.cur) }

// Turn returns the seat to move, -1 when the game is over.
func (s State) Turn() int {
	if s.g.Outcome().Over {
		return -1
	}
	return int(s.g.cur.ToMove)
}

// Moves returns the legal moves sorted by Text.
func (s State) Moves() []rules.Move {
	var out []rules.Move
	for _, m := range s.g.Moves() {
		out = append(out, s.g.v.RulesMove(m))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	return out
}

// Play parses text as a move and plays it.
func (s State) Play(text string) (rules.State, rules.Move, error) {
	if out := s.g.Outcome(); out.Over {
		return s.self(), rules.Move{}, rules.Errorc(rules.ErrGameOver, rules.CodeGameOver, nil, "the game is over (%s)", out.Reason)
	}
	m, err := s.g.v.ParseMove(s.g.cur, text)
	if err != nil {
		return s.self(), rules.Move{}, err
	}
	g, err := s.g.Play(m)
	if err != nil {
		return s.self(), rules.Move{}, err
	}
	return StateOf(g), s.g.v.RulesMove(m), nil
}

func (s State) self() rules.State { return StateOf(s.g) }

// Outcome reports the end of the game.
func (s State) Outcome() rules.Outcome { return s.g.Outcome() }

// Perft counts the move paths of the given depth from the current position.
func (s State) Perft(depth int) uint64 { return s.g.v.Perft(s.g.cur, depth) }

// PerftCounts counts the move paths of every depth from 0 to depth from
// the current position in one traversal; it stops with ctx's error when
// ctx is done.
func (s State) PerftCounts(ctx context.Context, depth int) ([]uint64, error) {
	return s.g.v.PerftCounts(ctx, s.g.cur, depth)
}

// Record writes the whole game as PDN.
func (s State) Record(meta rules.Meta) string { return s.g.PDN(meta) }

// View returns the position for pictures.
func (s State) View() rules.View {
	v, p := s.g.v, s.g.cur
	view := rules.View{Size: 8, Numbers: map[rules.Square]int{}, Turn: s.Turn()}
	for f := Square(0); f < 32; f++ {
		sq := v.Rules(f)
		view.Playable = append(view.Playable, sq)
		view.Numbers[sq] = v.Number(f)
		bit := uint32(1) << f
		if (p.White|p.Black)&bit == 0 {
			continue
		}
		pc := rules.Piece{Square: sq, Level: 1}
		if p.Black&bit != 0 {
			pc.Seat = 1
		}
		if p.Kings&bit != 0 {
			pc.Level = 2
		}
		view.Pieces = append(view.Pieces, pc)
	}
	if view.Turn >= 0 {
		for _, f := range v.sortedSquares(fromSet(s.g.Moves())) {
			view.Movable = append(view.Movable, v.Rules(f))
		}
	}
	return view
}

// Huffable lists the squares of the pieces the player to move may huff.
func (s HuffState) Huffable() []rules.Square {
	var out []rules.Square
	for _, f := range s.g.v.sortedSquares(s.g.Huffable()) {
		out = append(out, s.g.v.Rules(f))
	}
	return out
}

// Huff removes the opponent's piece on square (algebraic or numeric).
func (s HuffState) Huff(square string) (rules.State, error) {
	f, err := s.g.v.parseSquare(strings.ToLower(strings.TrimSpace(square)))
	if err != nil {
		return s, err
	}
	g, err := s.g.Huff(f)
	if err != nil {
		return s, err
	}
	return StateOf(g), nil
}

// RulesMove returns the platform-neutral description of m.
func (v Variant) RulesMove(m Move) rules.Move {
	rm := rules.Move{Text: v.MoveText(m), From: v.Rules(m.From), To: v.Rules(m.To)}
	rm.Path = append(rm.Path, rm.From)
	for _, f := range m.Path[:m.N] {
		rm.Path = append(rm.Path, v.Rules(f))
	}
	for _, f := range v.sortedSquares(m.Captured) {
		rm.Captured = append(rm.Captured, v.Rules(f))
	}
	return rm
}
