package games

import (
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/draughts"
)

// draughtsEntries lists the games of package rules/draughts.
func draughtsEntries() []entry {
	yesNo := []string{"yes", "no"}
	newGame := func(id string) func(map[string]string) (rules.Game, error) {
		return func(opts map[string]string) (rules.Game, error) { return draughts.New(id, opts) }
	}
	return []entry{
		{
			info: Info{ID: "spanish", Name: "Spanish draughts", Players: []int{2},
				Summary: "8x8 on the light squares, flying kings; take the most pieces, then the most kings"},
			make: newGame("spanish"),
		},
		{
			info: Info{ID: "damas", Name: "Damas", Players: []int{2},
				Summary: "8x8 family rules, flying kings landing just beyond; take the most pieces",
				Options: []Option{{Key: "huff", Default: "no", Values: yesNo,
					Help: "capturing is not forced: the opponent may huff a piece that should have captured"}}},
			make: newGame("damas"),
		},
		{
			info: Info{ID: "dame", Name: "Dame", Players: []int{2},
				Summary: "German rules, 8x8; take the most pieces, then the most kings",
				Options: []Option{{Key: "flying", Default: "yes", Values: yesNo,
					Help: "kings move and capture at any distance (no: one square at a time)"}}},
			make: newGame("dame"),
		},
	}
}
