package draughts_test

import (
	"fmt"

	"github.com/boardgamebot/bot/rules/draughts"
)

func ExampleVariant_Perft() {
	for d := 1; d <= 5; d++ {
		fmt.Println(d, draughts.Spanish.Perft(draughts.Initial, d))
	}
	// Output:
	// 1 7
	// 2 49
	// 3 302
	// 4 1469
	// 5 7361
}

func ExampleVariant_ParseMove() {
	v := draughts.Dame
	p, _ := v.ParseFEN("W:Wc3:Bd4,b4,d6,b6")
	for _, m := range v.Moves(p) {
		fmt.Println(v.MoveText(m), v.NumericText(p, m))
	}
	_, err := v.ParseMove(p, "c3xc7")
	fmt.Println(err)
	m, _ := v.ParseMove(p, "11x18x27")
	fmt.Println(v.FEN(v.Apply(p, m)))
	// Unordered output:
	// c3xe5xc7 11x18x27
	// c3xa5xc7 11x20x27
	// rules: c3xc7 is ambiguous: give the full path (c3xa5xc7 or c3xe5xc7)
	// B:Wc7:Bb4,b6
}
