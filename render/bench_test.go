package render

import (
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// BenchmarkRender draws and encodes one picture per game kind, the
// caches warm (as in a running bot); "PNG-bytes" is the size of the PNG.
func BenchmarkRender(b *testing.B) {
	for _, f := range fixtures() {
		b.Run(f.name, func(b *testing.B) {
			r := New()
			o := Options{Numbers: true}
			data, err := r.PNG(f.v, f.last, -1, o)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				data, err = r.PNG(f.v, f.last, -1, o)
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(data)), "PNG-bytes")
		})
	}
}

// sixtyMoves returns a made-up 60-move game of 8x8 draughts: the seats
// take turns moving a piece to the nearest free playing square ahead,
// capturing an enemy piece every sixth move. Legality does not
// matter here; the changes per move are like a real game's.
func sixtyMoves() ([]rules.View, []rules.Move) {
	frames, _ := shortGame()
	v := frames[0]
	var moves []rules.Move
	frames = frames[:1]
	for i := 0; len(moves) < 60; i++ {
		seat := len(moves) % 2
		occupied := map[rules.Square]bool{}
		var mine, theirs []rules.Piece
		for _, p := range v.Pieces {
			occupied[p.Square] = true
			if p.Seat == seat {
				mine = append(mine, p)
			} else {
				theirs = append(theirs, p)
			}
		}
		if len(mine) == 0 || len(theirs) == 0 {
			break
		}
		p := mine[(i*7)%len(mine)]
		var to rules.Square
		found := false
		for d := 1; d < 8 && !found; d++ {
			for _, s := range v.Playable {
				if !occupied[s] && abs(int(s.Rank)-int(p.Square.Rank)) == d {
					to, found = s, true
					break
				}
			}
		}
		if !found {
			continue
		}
		m := rules.Move{Text: p.Square.String() + "-" + to.String(), From: p.Square, To: to, Path: []rules.Square{p.Square, to}}
		if len(moves)%6 == 5 {
			m.Captured = []rules.Square{theirs[i%len(theirs)].Square}
		}
		v = after(v, m)
		moves = append(moves, m)
		frames = append(frames, v)
	}
	return frames, moves
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// BenchmarkReplay encodes the GIF of a 60-move game, caches warm.
func BenchmarkReplay(b *testing.B) {
	frames, moves := sixtyMoves()
	if len(moves) != 60 {
		b.Fatalf("the made-up game has %d moves", len(moves))
	}
	r := New()
	data, err := r.Replay(frames, moves, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if data, err = r.Replay(frames, moves, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data)), "GIF-bytes")
}
