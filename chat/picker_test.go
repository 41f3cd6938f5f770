package chat

import (
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
)

func TestPicker(t *testing.T) {
	tests := []struct {
		name, game string
		opts       map[string]string
		fen        string
		want       string // "from: label=move ..." per piece, "; " between pieces
	}{
		{
			// Spanish start: every White man on rank 3 can move, one or two targets.
			name: "spanish start", game: "spanish",
			want: "b3: a4=b3-a4 c4=b3-c4; d3: c4=d3-c4 e4=d3-e4; f3: e4=f3-e4 g4=f3-g4; h3: g4=h3-g4",
		},
		{
			// Only the man that must capture is offered: the white man on c3
			// must take d4; the man on g1 may not make a plain move.
			name: "capture obligatory", game: "dame",
			fen:  "W:Wc3,g1:Bd4,h8",
			want: "c3: e5=c3xe5",
		},
		{
			// Halma: every move of the 8x8 start is offered, one target per end square.
			name: "halma start", game: "halma",
			opts: map[string]string{"size": "8"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := games.New(tt.game, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			st := g.Start(0)
			if tt.fen != "" {
				if st, err = g.Load(tt.fen); err != nil {
					t.Fatal(err)
				}
			}
			pieces := Picker(st)
			n := 0
			var parts []string
			for _, p := range pieces {
				var ts []string
				for _, tg := range p.Targets {
					ts = append(ts, tg.Label+"="+tg.Move)
					if _, _, err := st.Play(tg.Move); err != nil {
						t.Errorf("target %s of %s does not play: %v", tg.Move, p.From, err)
					}
					n++
				}
				parts = append(parts, p.From.String()+": "+strings.Join(ts, " "))
			}
			if n != len(st.Moves()) {
				t.Errorf("picker offers %d moves, the position has %d", n, len(st.Moves()))
			}
			if tt.want != "" {
				if got := strings.Join(parts, "; "); got != tt.want {
					t.Errorf("picker:\n got %s\nwant %s", got, tt.want)
				}
			}
		})
	}
}

// movesOnly is a rules.State whose only purpose is to list given moves.
type movesOnly struct {
	rules.State
	moves []rules.Move
}

func (m movesOnly) Moves() []rules.Move { return m.moves }

// TestPickerSameEnds: two series with the same ends capturing different
// pieces are two buttons, each labelled with its full path; a lone move to
// a square keeps the short label.
func TestPickerSameEnds(t *testing.T) {
	sq := func(s string) rules.Square {
		q, err := rules.ParseSquare(s, 8)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	st := movesOnly{moves: []rules.Move{
		{Text: "e1xg3xe5", From: sq("e1"), To: sq("e5")},
		{Text: "e1xc3xe5", From: sq("e1"), To: sq("e5")},
		{Text: "e1-f2", From: sq("e1"), To: sq("f2")},
	}}
	got := Picker(st)
	if len(got) != 1 || len(got[0].Targets) != 3 {
		t.Fatalf("picker: %+v", got)
	}
	var labels []string
	for _, tg := range got[0].Targets {
		labels = append(labels, tg.Label+"="+tg.Move)
	}
	if want := "f2=e1-f2 e1xc3xe5=e1xc3xe5 e1xg3xe5=e1xg3xe5"; strings.Join(labels, " ") != want {
		t.Errorf("labels %q, want %q", strings.Join(labels, " "), want)
	}
}
