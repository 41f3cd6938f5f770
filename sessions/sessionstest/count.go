// Package sessionstest has a tiny game for the tests of sessions and the
// adapters: "count", where the players in turn add 1 or 2 to a counter and
// whoever reaches the target wins. Options give it a formation step and
// huffing, so that every path of a session can be tested without the real
// games.
package sessionstest

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/rules"
)

// Games builds the count game: id "count", options target=N (default 10),
// players=2|3|4 (default 2), form=yes|no, huff=yes|no, retire=yes|no
// (default no). It has the signature of games.New, for
// sessions.Config.Games.
func Games(id string, opts map[string]string) (rules.Game, error) {
	if strings.ToLower(id) != "count" {
		return nil, rules.Errorc(rules.ErrBadOption, rules.CodeUnknownGame, []string{"Game", id, "Games", "count"}, "unknown game %q (games: count)", id)
	}
	g := &Count{Target: 10, Players: 2}
	for k, v := range opts {
		switch k {
		case "target":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 1000 {
				return nil, rules.Errorc(rules.ErrBadOption, rules.CodeBadValue, []string{"Key", "target", "Value", v, "Choices", "1-1000"}, "target=%s is not allowed (choose 1 to 1000)", v)
			}
			g.Target = n
		case "players":
			n, err := strconv.Atoi(v)
			if err != nil || n < 2 || n > 4 {
				return nil, rules.Errorc(rules.ErrBadOption, rules.CodeBadValue, []string{"Key", "players", "Value", v, "Choices", "2, 3, 4"}, "players=%s is not allowed (choose 2, 3 or 4)", v)
			}
			g.Players = n
		case "form", "huff", "retire":
			if v != "yes" && v != "no" {
				return nil, rules.Errorc(rules.ErrBadOption, rules.CodeBadValue, []string{"Key", k, "Value", v, "Choices", "yes, no"}, "%s=%s is not allowed (choose yes, no)", k, v)
			}
			switch k {
			case "form":
				g.Form = v == "yes"
			case "huff":
				g.HuffOK = v == "yes"
			default:
				g.RetireOK = v == "yes"
			}
		default:
			return nil, rules.Errorc(rules.ErrBadOption, rules.CodeNoOption, []string{"Game", "count", "Key", k, "Keys", "form, huff, players, retire, target"}, "count has no option %q (options: form, huff, players, retire, target)", k)
		}
	}
	return g, nil
}

// Count is the count game. With RetireOK (and more than two players) its
// states are rules.Retirer: a seat that leaves is skipped, and the last
// seat left wins.
type Count struct {
	Target, Players        int
	Form, HuffOK, RetireOK bool
}

// ID implements rules.Game.
func (g *Count) ID() string { return "count" }

// Name implements rules.Game.
func (g *Count) Name() string { return "Counting game" }

// Options implements rules.Game.
func (g *Count) Options() map[string]string {
	yn := map[bool]string{true: "yes", false: "no"}
	opts := map[string]string{"target": strconv.Itoa(g.Target), "players": strconv.Itoa(g.Players),
		"form": yn[g.Form], "huff": yn[g.HuffOK]}
	if g.RetireOK {
		opts["retire"] = "yes"
	}
	return opts
}

// Seats implements rules.Game.
func (g *Count) Seats() []string {
	if g.Players == 2 {
		return []string{"White", "Black"}
	}
	var s []string
	for i := range g.Players {
		s = append(s, fmt.Sprintf("Player %d", i+1))
	}
	return s
}

// Start implements rules.Game.
func (g *Count) Start(first int) rules.State {
	st := state{g: g, turn: first % g.Players, winner: -1}
	if g.Form {
		st.pending = 1<<g.Players - 1
	}
	return st.wrap()
}

// Load implements rules.Game: "N:T" (counter N, seat T to move).
func (g *Count) Load(fen string) (rules.State, error) {
	var n, t int
	if _, err := fmt.Sscanf(fen, "%d:%d", &n, &t); err != nil || t < 0 || t >= g.Players || n < 0 {
		return nil, rules.Errorf(rules.ErrBadPosition, "%q is not a count position", fen)
	}
	return state{g: g, n: n, turn: t, winner: -1}.wrap(), nil
}

type state struct {
	g       *Count
	n, turn int
	pending int // bit per seat still to form
	gone    int // bit per seat that left the game
	winner  int
	over    bool
	reason  rules.Reason
}

// wrap returns s as a rules.Retirer when the game has retiring.
func (s state) wrap() rules.State {
	if s.g.RetireOK {
		return retirer{s}
	}
	return s
}

// next returns the seat after seat that has not left.
func (s state) next(seat int) int {
	for i := 1; i < s.g.Players; i++ {
		if n := (seat + i) % s.g.Players; s.gone&(1<<n) == 0 {
			return n
		}
	}
	return seat
}

func (s state) Game() rules.Game { return s.g }
func (s state) FEN() string      { return fmt.Sprintf("%d:%d", s.n, s.turn) }

func (s state) Turn() int {
	if s.over || s.pending != 0 {
		return -1
	}
	return s.turn
}

func (s state) Moves() []rules.Move {
	if s.Turn() < 0 {
		return nil
	}
	return []rules.Move{{Text: "1"}, {Text: "2"}}
}

func (s state) Play(text string) (rules.State, rules.Move, error) {
	if s.over {
		return nil, rules.Move{}, rules.Errorc(rules.ErrGameOver, rules.CodeGameOver, nil, "the game is over")
	}
	if s.pending != 0 {
		return nil, rules.Move{}, rules.Errorc(rules.ErrNotNow, rules.CodeNotStarted, nil, "formations first")
	}
	t := strings.TrimSpace(text)
	k, err := strconv.Atoi(t)
	if err != nil {
		return nil, rules.Move{}, rules.Errorc(rules.ErrSyntax, rules.CodeNotMove, []string{"Text", text, "Examples", "1, 2"}, "%q is not a move (type 1 or 2)", text)
	}
	if k != 1 && k != 2 {
		return nil, rules.Move{}, rules.Errorc(rules.ErrIllegal, rules.CodeNotLegal, []string{"Move", t}, "illegal move %q: add 1 or 2", t)
	}
	s.n += k
	if s.n >= s.g.Target {
		s.over, s.winner, s.reason = true, s.turn, rules.TargetReached
	}
	s.turn = s.next(s.turn)
	return s.wrap(), rules.Move{Text: t}, nil
}

func (s state) Outcome() rules.Outcome {
	if !s.over {
		return rules.Outcome{Winner: -1}
	}
	return rules.Outcome{Over: true, Winner: s.winner, Reason: s.reason}
}

func (s state) View() rules.View {
	v := rules.View{Size: 8, Turn: s.Turn()}
	for i := 0; i < s.n && i < 64; i++ {
		v.Pieces = append(v.Pieces, rules.Piece{Square: rules.Square{File: int8(i % 8), Rank: int8(i / 8)}, Seat: 0, Level: 1})
	}
	return v
}

// Pending implements rules.Former.
func (s state) Pending() []int {
	var out []int
	for i := range s.g.Players {
		if s.pending&(1<<i) != 0 {
			out = append(out, i)
		}
	}
	sort.Ints(out)
	return out
}

// Form implements rules.Former: "default" or squares of rank 1.
func (s state) Form(seat int, squares string) (rules.State, error) {
	if s.pending&(1<<seat) == 0 {
		return nil, rules.Errorc(rules.ErrNotNow, rules.CodeFormationChosen, nil, "seat %d has its formation", seat)
	}
	if squares != "default" {
		for _, f := range strings.Fields(squares) {
			sq, err := rules.ParseSquare(f, 8)
			if err != nil {
				return nil, err
			}
			if sq.Rank != 0 {
				return nil, rules.Errorc(rules.ErrBadPosition, rules.CodeFormationRanks, []string{"Square", f, "Ranks", "1"}, "%s is not on rank 1", f)
			}
		}
		if squares == "" {
			return nil, rules.Errorc(rules.ErrBadPosition, rules.CodeFormation, []string{"Example", "a1 b1"}, "no squares")
		}
	}
	s.pending &^= 1 << seat
	return s.wrap(), nil
}

// Huffable implements rules.Huffer: a1 while the counter is odd.
func (s state) Huffable() []rules.Square {
	if !s.g.HuffOK || s.n%2 == 0 || s.Turn() < 0 {
		return nil
	}
	return []rules.Square{{}}
}

// Huff implements rules.Huffer: takes 1 off an odd counter.
func (s state) Huff(square string) (rules.State, error) {
	if len(s.Huffable()) == 0 {
		return nil, rules.Errorf(rules.ErrNotNow, "nothing to huff")
	}
	if square != "a1" {
		return nil, rules.Errorc(rules.ErrIllegal, rules.CodeNoHuff, []string{"Square", square}, "cannot huff %q (huff a1)", square)
	}
	s.n--
	return s.wrap(), nil
}

// retirer is a state of a game with retire=yes.
type retirer struct{ state }

// Retire implements rules.Retirer: seat leaves; the turn skips it; the
// last seat left wins ("the others left"). Two players: rules.ErrNotNow.
func (r retirer) Retire(seat int) (rules.State, error) {
	s := r.state
	switch {
	case s.g.Players == 2:
		return nil, rules.Errorc(rules.ErrNotNow, rules.CodeCannotLeave, nil, "two players: resign instead")
	case s.over:
		return nil, rules.Errorc(rules.ErrGameOver, rules.CodeGameOver, nil, "the game is over")
	case seat < 0 || seat >= s.g.Players || s.gone&(1<<seat) != 0:
		return nil, rules.Errorc(rules.ErrNotNow, rules.CodeNoPlayer, []string{"N", strconv.Itoa(seat + 1)}, "seat %d is not in the game", seat)
	}
	s.gone |= 1 << seat
	s.pending &^= 1 << seat
	if s.turn == seat {
		s.turn = s.next(seat)
	}
	if s.next(s.turn) == s.turn {
		s.over, s.winner, s.reason = true, s.turn, rules.OthersLeft
	}
	return s.wrap(), nil
}

var (
	_ rules.Saver    = state{}
	_ rules.Restorer = (*Count)(nil)
)

// Save implements rules.Saver: version 1, then the counter, the seat to
// move, the pending formations and the seats gone (bit sets), the winner
// + 1 and over (uvarints), and the reason's text.
func (s state) Save() []byte {
	b := []byte{1}
	for _, x := range []int{s.n, s.turn, s.pending, s.gone, s.winner + 1, btoi(s.over)} {
		b = binary.AppendUvarint(b, uint64(x))
	}
	return append(b, string(s.reason)...)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Restore implements rules.Restorer.
func (g *Count) Restore(snapshot []byte) (rules.State, error) {
	bad := rules.Errorf(rules.ErrBadSnapshot, "bad count snapshot")
	if len(snapshot) < 1 || snapshot[0] != 1 {
		return nil, bad
	}
	b := snapshot[1:]
	var x [6]int
	for i, limit := range []uint64{1 << 20, uint64(g.Players - 1), 1<<g.Players - 1, 1<<g.Players - 1, uint64(g.Players), 1} {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > limit {
			return nil, bad
		}
		x[i], b = int(v), b[n:]
	}
	s := state{g: g, n: x[0], turn: x[1], pending: x[2], gone: x[3], winner: x[4] - 1, over: x[5] == 1}
	setText(&s.reason, string(b))
	return s.wrap(), nil
}

// setText sets a string field whatever its string type.
func setText[T ~string](dst *T, text string) { *dst = T(text) }
