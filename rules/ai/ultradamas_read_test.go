package ai

import (
	"math/rand/v2"
	"testing"

	"github.com/boardgamebot/bot/rules/ultradamas"
)

// readUltraPieces is the reader readUltra replaced: square by square
// through Position.Piece.
func readUltraPieces(p *ultradamas.Position) (b ultraBoard) {
	for s := ultradamas.Square(0); s < 64; s++ {
		side, level, carried, ok := p.Piece(s)
		if !ok {
			continue
		}
		b.occ[side] |= 1 << uint(s)
		b.level[s] = int8(level)
		b.carry[s] = int8(carried)
	}
	return b
}

// TestReadUltraMatchesPieces checks that the bitboard reader of the
// search sees every position of random games (with kings of every level,
// carried pieces and double ultra kings) as Position.Piece describes it.
func TestReadUltraMatchesPieces(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	starts := []string{
		"R:Ra1,c1,2e1,3b2,d2,4f2,a3,5e3+1,g5:Bb6,d6,2f6,h6,3a7,c7,4e7,b8,6d8+2,5f8",
		"B:R6d4+3,5e3,2a1:B5d5+4,3c6,4h8,h6",
	}
	var buf []ultradamas.Move
	for _, fen := range starts {
		p, err := ultradamas.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for game := 0; game < 20; game++ {
			q := p
			for ply := 0; ply < 60; ply++ {
				if got, want := readUltra(&q), readUltraPieces(&q); got != want {
					t.Fatalf("%s: readUltra differs from Piece", q.FEN())
				}
				buf = q.Moves(buf)
				if len(buf) == 0 {
					break
				}
				q = q.Apply(buf[r.IntN(len(buf))])
			}
		}
	}
}
