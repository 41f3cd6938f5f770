package ultradamas_test

import (
	"fmt"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
)

// A game starts with the formation phase; then moves are played in the
// page's notation and checked against the legal moves.
func Example() {
	g, err := games.New("ultradamas", nil)
	if err != nil {
		panic(err)
	}
	st := g.Start(0)
	fmt.Println(g.Name(), g.Seats(), "turn", st.Turn(), "pending", st.(rules.Former).Pending())
	st, _ = st.(rules.Former).Form(0, "default")
	_, err = st.(rules.Former).Form(1, "a8 b8 c8 d8 e8 f8 g8 h8 a7 b7 c7 x7")
	fmt.Println(err)
	st, _ = st.(rules.Former).Form(1, "default")
	fmt.Println("turn", st.Turn(), "moves", len(st.Moves()))
	st, m, _ := st.Play("c3-d4")
	fmt.Println(m.Text, st.FEN())
	_, _, err = st.Play("d4-d5")
	fmt.Println(err)
	// Output:
	// Ultradamas [Red Black] turn -1 pending [0 1]
	// rules: "x7" is not a square (a1 to h8)
	// turn 0 moves 19
	// c3-d4 B:Ra1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8:n1
	// rules: the piece on d4 is Red's; Black is to move
}

// Loading a position and listing its moves, as `bot moves` does.
func Example_moves() {
	g, _ := games.New("ultradamas", nil)
	st, _ := g.Load("R:R4d4:Bd6,e4,f4,e3")
	for _, m := range st.Moves() {
		fmt.Println(m.Text, m.Captured)
	}
	// Output:
	// d4xd7 [d6]
	// d4xf2xf5xd3 [e3 e4 f4]
	// d4xg4 [e4 f4]
}
