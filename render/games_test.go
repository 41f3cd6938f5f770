package render

import (
	"bytes"
	"image/gif"
	"maps"
	"slices"
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
)

// registered returns every registered game with its default options,
// and Halma on each board and with four players.
func registered(t *testing.T) []rules.Game {
	t.Helper()
	var out []rules.Game
	for _, info := range games.List() {
		sets := []map[string]string{nil}
		if info.ID == "halma" {
			sets = append(sets, map[string]string{"size": "8"}, map[string]string{"size": "10"}, map[string]string{"players": "4"})
		}
		for _, opts := range sets {
			g, err := games.New(info.ID, opts)
			if err != nil {
				t.Errorf("games.New(%q, %v): %v", info.ID, opts, err)
				continue
			}
			out = append(out, g)
		}
	}
	ids := map[string]bool{}
	for _, g := range out {
		ids[g.ID()] = true
	}
	for _, id := range []string{"spanish", "damas", "dame", "ultradamas", "halma"} {
		if !ids[id] {
			t.Errorf("%s is not registered", id)
		}
	}
	return out
}

// TestSeatColorNamesThePicturesColor: the color a chat names for a
// seat is the color of that seat's pieces in the picture.
func TestSeatColorNamesThePicturesColor(t *testing.T) {
	names := map[int]string{cWhite: "white", cBlack: "black", cRed: "red", cBlue: "blue", cGreen: "green", cYellow: "yellow"}
	want := map[string][]string{
		"Spanish draughts": {"white", "black"}, "Damas": {"white", "black"}, "Dame": {"white", "black"},
		"Ultradamas": {"red", "black"}, "Halma": {"red", "blue"}, "Halma 4": {"red", "blue", "green", "yellow"},
	}
	r := New()
	for _, g := range registered(t) {
		frames, _ := playSome(t, g, 0)
		v := frames[0]
		name := g.Name()
		if len(g.Seats()) == 4 {
			name += " 4"
		}
		var got []string
		for seat := range g.Seats() {
			got = append(got, SeatColor(v, seat))
		}
		if w := want[name]; !slices.Equal(got, w) {
			t.Errorf("%s: seat colors %q, want %q", name, got, w)
		}
		if SeatColor(v, -1) != "" || SeatColor(v, len(g.Seats())) != "" {
			t.Errorf("%s: a color for a seat that is not there", name)
		}
		data, err := r.PNG(v, nil, 0, Options{})
		if err != nil {
			t.Fatal(err)
		}
		p := decode(t, r, data, Options{}, v.Size, 0)
		for _, pc := range v.Pieces {
			if c := p.seatAt(pc.Square); names[c] != got[pc.Seat] {
				t.Errorf("%s: the piece on %v is %s in the picture, but seat %d is called %s", name, pc.Square, names[c], pc.Seat, got[pc.Seat])
			}
		}
	}
}

// playSome plays up to n moves from the start (after the default
// formations, where the game has them), picking varied legal moves, and
// returns the views and the moves.
func playSome(t *testing.T, g rules.Game, n int) ([]rules.View, []rules.Move) {
	t.Helper()
	st := g.Start(0)
	for {
		f, ok := st.(rules.Former)
		if !ok || len(f.Pending()) == 0 {
			break
		}
		next, err := f.Form(f.Pending()[0], "default")
		if err != nil {
			t.Fatalf("%s: default formation: %v", g.ID(), err)
		}
		st = next
	}
	frames := []rules.View{st.View()}
	var moves []rules.Move
	for i := 0; i < n; i++ {
		legal := st.Moves()
		if len(legal) == 0 || st.Outcome().Over {
			break
		}
		next, m, err := st.Play(legal[(i*5)%len(legal)].Text)
		if err != nil {
			t.Fatalf("%s: playing a legal move: %v", g.ID(), err)
		}
		st = next
		frames = append(frames, st.View())
		moves = append(moves, m)
	}
	return frames, moves
}

// TestRegisteredGames draws real positions of every registered game from
// the side of the player to move and checks the pieces, the last move
// and the movable pieces by pixels, then replays the game as a GIF.
func TestRegisteredGames(t *testing.T) {
	r := New()
	for _, g := range registered(t) {
		name := g.ID()
		opts := g.Options()
		keys := slices.Sorted(maps.Keys(opts))
		for _, k := range keys {
			name += " " + k + "=" + opts[k]
		}
		t.Run(name, func(t *testing.T) {
			frames, moves := playSome(t, g, 30)
			seats := len(g.Seats())
			for i, v := range frames {
				var last *rules.Move
				if i > 0 {
					last = &moves[i-1]
				}
				data, err := r.PNG(v, last, -1, Options{Numbers: true})
				if err != nil {
					t.Fatalf("position %d: %v", i, err)
				}
				turns := 0
				if viewer := max(v.Turn, 0); viewer > 0 {
					turns = viewer * 4 / seats
				}
				p := decode(t, r, data, Options{}, v.Size, turns)
				checkPieces(t, p, v)
				if last != nil && !last.Pass {
					if c := p.fillAt(last.From); c != p.th.from {
						t.Errorf("after %s: start square %v is %v", last.Text, last.From, c)
					}
					if c := p.fillAt(last.To); c != p.th.to {
						t.Errorf("after %s: end square %v is %v", last.Text, last.To, c)
					}
					for _, s := range last.Captured {
						if c := p.at(s, 0.35, 0.35); c != p.th.cross && p.seatAt(s) < 0 {
							t.Errorf("after %s: captured %v is %v at its cross", last.Text, s, c)
						}
					}
				}
				for _, s := range v.Movable {
					framed := false
					for x := 0.0; x < 0.15; x += 0.02 {
						framed = framed || p.at(s, x, 0.5) == p.th.frame
					}
					if !framed {
						t.Errorf("position %d: movable %v is not framed", i, s)
					}
				}
			}
			data, err := r.Replay(frames, moves, Options{})
			if err != nil {
				t.Fatal(err)
			}
			anim, err := gif.DecodeAll(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if len(anim.Image) != len(frames) {
				t.Errorf("GIF of %d moves has %d frames, want %d", len(moves), len(anim.Image), len(frames))
			}
		})
	}
}

// TestSquareColors: a1 is dark on every board, so Spanish draughts (played
// on the light squares, b1, d1, ...) shows its pieces on light squares and
// dame and damas on dark ones, as on the real boards.
func TestSquareColors(t *testing.T) {
	r := New()
	for _, tt := range []struct {
		game          string
		playableDark  bool
		emptyPlayable rules.Square // an empty playing square at the start
	}{
		{"spanish", false, rules.Square{File: 0, Rank: 3}}, // a4
		{"dame", true, rules.Square{File: 1, Rank: 3}},     // b4
		{"damas", true, rules.Square{File: 1, Rank: 3}},    // b4
	} {
		t.Run(tt.game, func(t *testing.T) {
			g, err := games.New(tt.game, nil)
			if err != nil {
				t.Fatal(err)
			}
			v := g.Start(0).View()
			data, err := r.PNG(v, nil, 0, Options{})
			if err != nil {
				t.Fatal(err)
			}
			p := decode(t, r, data, Options{}, 8, 0)
			occupied := map[rules.Square]bool{}
			for _, pc := range v.Pieces {
				occupied[pc.Square] = true
			}
			for f := int8(0); f < 8; f++ {
				for rk := int8(0); rk < 8; rk++ {
					sq := rules.Square{File: f, Rank: rk}
					if occupied[sq] {
						continue
					}
					want := p.th.light
					if (f+rk)%2 == 0 {
						want = p.th.dark
					}
					if got := p.fillAt(sq); got != want {
						t.Errorf("%s: fill %v, want %v (a1 dark)", sq, got, want)
					}
				}
			}
			if got := p.fillAt(tt.emptyPlayable) == p.th.dark; got != tt.playableDark {
				t.Errorf("playing square %s dark = %v, want %v", tt.emptyPlayable, got, tt.playableDark)
			}
		})
	}
}
