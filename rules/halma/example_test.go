package halma_test

import (
	"errors"
	"fmt"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/rules/halma"
)

func Example() {
	g, _ := halma.New(halma.Variant{Size: 8, Players: 2})
	s := g.StartState(0) // the caller draws who starts
	fmt.Println(s.FEN())
	fmt.Println(len(s.Moves()), "moves, perft(3) =", s.Perft(3))
	next, m, _ := s.Play("b2-d2") // a jump over c2
	fmt.Println(m.Text, next.FEN())
	_, _, err := next.Play("a1-a5")
	fmt.Println(errors.Is(err, rules.ErrIllegal), err)
	// Output:
	// 8:2:1:a1,b1,c1,d1,a2,b2,c2,a3,b3,a4:h8,g8,f8,e8,h7,g7,f7,h6,g6,h5
	// 24 moves, perft(3) = 20050
	// b2-d2 8:2:2:a1,b1,c1,d1,a2,c2,d2,a3,b3,a4:h8,g8,f8,e8,h7,g7,f7,h6,g6,h5
	// true rules: illegal move "a1-a5": the piece on a1 is Player 1's, Player 2 is to move
}

func ExamplePosition_Moves() {
	// A piece on c1 and a ladder of pieces up the c file.
	p, _ := halma.ParseFEN("8:2:1:c1:c2,c4,c6")
	for _, m := range p.Moves() {
		fmt.Print(m, " ", p.Path(m), "\n")
	}
	// Output:
	// c1-b1 [c1 b1]
	// c1-d1 [c1 d1]
	// c1-b2 [c1 b2]
	// c1-d2 [c1 d2]
	// c1-c3 [c1 c3]
	// c1-c5 [c1 c3 c5]
	// c1-c7 [c1 c3 c5 c7]
}

func ExampleNewFromOptions() {
	for _, opts := range []map[string]string{
		{},
		{"size": "8"},
		{"size": "16", "players": "4"},
	} {
		g, err := games.New("halma", opts)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(g.Options(), g.Seats())
	}
	_, err := games.New("halma", map[string]string{"size": "10", "players": "4"})
	fmt.Println(errors.Is(err, rules.ErrBadOption), err)
	// Output:
	// map[leavehome:off players:2 size:16] [Player 1 Player 2]
	// map[leavehome:30 players:2 size:8] [Player 1 Player 2]
	// map[leavehome:off players:4 size:16] [Player 1 Player 2 Player 3 Player 4]
	// true rules: halma with 4 players needs size=16
}
