package draughts_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/draughts"
)

func newGame(t *testing.T, id string, opts map[string]string) rules.Game {
	t.Helper()
	g, err := draughts.New(id, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestNewOptions(t *testing.T) {
	for _, c := range []struct {
		id   string
		opts map[string]string
		want map[string]string
	}{
		{"spanish", nil, map[string]string{}},
		{"damas", nil, map[string]string{"huff": "no"}},
		{"damas", map[string]string{"huff": "yes"}, map[string]string{"huff": "yes"}},
		{"dame", nil, map[string]string{"flying": "yes"}},
		{"DAME", map[string]string{"Flying": "NO"}, map[string]string{"flying": "no"}},
	} {
		g := newGame(t, c.id, c.opts)
		if got := g.Options(); len(got) != len(c.want) || (len(got) > 0 && got[firstKey(c.want)] != c.want[firstKey(c.want)]) {
			t.Errorf("%s %v: options %v, want %v", c.id, c.opts, got, c.want)
		}
		if !slices.Equal(g.Seats(), []string{"White", "Black"}) {
			t.Errorf("seats %v", g.Seats())
		}
	}
	for _, c := range []struct {
		id   string
		opts map[string]string
		msg  string
	}{
		{"chess", nil, `unknown game "chess"`},
		{"spanish", map[string]string{"flying": "no"}, `spanish has no option "flying"`},
		{"dame", map[string]string{"huff": "yes"}, `dame has no option "huff"`},
		{"dame", map[string]string{"flying": "Maybe"}, `flying="Maybe" is not allowed`},
		{"dame", map[string]string{"flying": "y\nes"}, `flying="y\nes" is not allowed`},
		{"damas", map[string]string{"Huf\nf": "yes"}, `damas has no option "Huf\nf"`},
	} {
		_, err := draughts.New(c.id, c.opts)
		if !errors.Is(err, rules.ErrBadOption) || !strings.Contains(err.Error(), c.msg) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %q: %v, want one line with %q", c.id, c.opts, err, c.msg)
		}
	}
}

func firstKey(m map[string]string) string {
	for k := range m {
		return k
	}
	return ""
}

func TestStatePlay(t *testing.T) {
	s := newGame(t, "spanish", nil).Start(1)
	if s.Turn() != 0 || s.FEN() != "W:Wb1,d1,f1,h1,a2,c2,e2,g2,b3,d3,f3,h3:Ba6,c6,e6,g6,b7,d7,f7,h7,a8,c8,e8,g8" {
		t.Fatalf("start: turn %d, %s", s.Turn(), s.FEN())
	}
	ms := s.Moves()
	if len(ms) != 7 || !slices.IsSortedFunc(ms, func(a, b rules.Move) int { return strings.Compare(a.Text, b.Text) }) {
		t.Fatalf("moves %v", ms)
	}
	before := s.FEN()
	next, m, err := s.Play("11-15")
	if err != nil {
		t.Fatal(err)
	}
	if s.FEN() != before || next.Turn() != 1 || m.Text != "d3-c4" || m.From.String() != "d3" || m.To.String() != "c4" || len(m.Path) != 2 || len(m.Captured) != 0 {
		t.Fatalf("after 11-15: %s, move %+v", next.FEN(), m)
	}
	same, _, err := next.Play("nonsense")
	if !errors.Is(err, rules.ErrSyntax) || same.FEN() != next.FEN() {
		t.Fatalf("garbage: %v", err)
	}
	// A series: path and captured squares.
	c, err := newGame(t, "dame", nil).Load("W:Wc1,g3:Bd2,f4,h8")
	if err != nil {
		t.Fatal(err)
	}
	_, m, err = c.Play("c1xg5")
	if err != nil || m.Text != "c1xe3xg5" || len(m.Path) != 3 || m.Path[1].String() != "e3" || len(m.Captured) != 2 {
		t.Fatalf("c1xg5: %+v %v", m, err)
	}
	if p, ok := c.(rules.Perfter); !ok || p.Perft(1) != 1 {
		t.Fatal("Perfter")
	}
	if p := newGame(t, "spanish", nil).Start(0).(rules.Perfter); p.Perft(3) != 302 {
		t.Fatal("perft(3)")
	}
	// Load(FEN()) gives the same position.
	l, err := newGame(t, "dame", nil).Load(c.FEN())
	if err != nil || l.FEN() != c.FEN() {
		t.Fatalf("reload: %v", err)
	}
	if _, err := newGame(t, "dame", nil).Load("W:Wa8:B"); !errors.Is(err, rules.ErrBadPosition) {
		t.Fatalf("bad FEN: %v", err)
	}
}

func TestView(t *testing.T) {
	s := newGame(t, "spanish", nil).Start(0)
	v := s.View()
	if v.Size != 8 || len(v.Playable) != 32 || len(v.Pieces) != 24 || v.Turn != 0 {
		t.Fatalf("view %+v", v)
	}
	num := map[string]int{}
	for sq, n := range v.Numbers {
		num[sq.String()] = n
	}
	if num["h1"] != 1 || num["b1"] != 4 || num["a8"] != 32 || len(num) != 32 {
		t.Fatalf("numbers %v", num)
	}
	var movable []string
	for _, sq := range v.Movable {
		movable = append(movable, sq.String())
	}
	if !slices.Equal(movable, []string{"b3", "d3", "f3", "h3"}) {
		t.Fatalf("movable %v", movable)
	}
	// Only the pieces that may capture are movable when a capture is due.
	d, _ := newGame(t, "dame", nil).Load("W:Wa1,c1,g3,Ke5:Bd2,f4,h8")
	v = d.View()
	movable = nil
	for _, sq := range v.Movable {
		movable = append(movable, sq.String())
	}
	if !slices.Equal(movable, []string{"c1"}) {
		t.Fatalf("movable %v", movable)
	}
	for _, p := range v.Pieces {
		want := rules.Piece{Square: p.Square, Seat: 0, Level: 1}
		switch p.Square.String() {
		case "e5":
			want.Level = 2
		case "d2", "f4", "h8":
			want.Seat = 1
		}
		if p != want {
			t.Errorf("piece %+v, want %+v", p, want)
		}
	}
	if num := v.Numbers[rules.Square{File: 0, Rank: 0}]; num != 4 {
		t.Errorf("dame a1 is %d, want 4", num)
	}
}

func TestHuffer(t *testing.T) {
	if _, ok := newGame(t, "damas", nil).Start(0).(rules.Huffer); ok {
		t.Fatal("damas huff=no is a Huffer")
	}
	s, err := newGame(t, "damas", map[string]string{"huff": "yes"}).Load("W:Wa3,c3:Bd4,h8")
	if err != nil {
		t.Fatal(err)
	}
	s, _, err = s.Play("a3-b4")
	if err != nil {
		t.Fatal(err)
	}
	h := s.(rules.Huffer)
	if got := h.Huffable(); len(got) != 1 || got[0].String() != "c3" {
		t.Fatalf("huffable %v", got)
	}
	if _, err := h.Huff("b4"); !errors.Is(err, rules.ErrNotNow) {
		t.Fatalf("huff b4: %v", err)
	}
	if _, err := h.Huff("z9"); !errors.Is(err, rules.ErrSyntax) {
		t.Fatalf("huff z9: %v", err)
	}
	s2, err := h.Huff("11") // c3 by number
	if err != nil || s2.FEN() != "B:Wb4:Bd4,h8" || len(s2.(rules.Huffer).Huffable()) != 0 {
		t.Fatalf("after the huff: %v %v", s2, err)
	}
	if s.FEN() != "B:Wc3,b4:Bd4,h8" {
		t.Fatalf("Huff changed its receiver: %s", s.FEN())
	}
}

func TestGameOverAndRecord(t *testing.T) {
	s, _ := newGame(t, "spanish", nil).Load("W:Wd3:Bc4")
	s, _, err := s.Play("d3xb5")
	if err != nil {
		t.Fatal(err)
	}
	out := s.Outcome()
	if !out.Over || out.Winner != 0 || out.Reason != rules.NoPieces || s.Turn() != -1 || len(s.View().Movable) != 0 {
		t.Fatalf("outcome %+v", out)
	}
	if _, _, err := s.Play("b5-a6"); !errors.Is(err, rules.ErrGameOver) {
		t.Fatalf("play after the end: %v", err)
	}
	rec := s.(rules.Recorder).Record(rules.Meta{Names: []string{"a", "b"}})
	if !strings.Contains(rec, `[Result "1-0"]`) || !strings.Contains(rec, `[FEN "W:Wd3:Bc4"]`) || !strings.Contains(rec, "1. 11x20 1-0") {
		t.Fatalf("record:\n%s", rec)
	}
	g, _, err := draughts.ParsePDN(rec)
	if err != nil || g.Result() != "1-0" {
		t.Fatalf("import: %v", err)
	}
	if st := draughts.StateOf(g); st.FEN() != s.FEN() {
		t.Fatalf("imported %s, want %s", st.FEN(), s.FEN())
	}
}
