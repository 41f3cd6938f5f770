package games

import (
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ultradamas"
)

// ultradamasEntries lists the games of package rules/ultradamas.
func ultradamasEntries() []entry {
	return []entry{{
		info: Info{
			ID:      "ultradamas",
			Name:    "Ultradamas",
			Players: []int{2},
			Summary: "draughts with stacks: pieces climb six levels, up to teleporting ultra kings",
		},
		make: func(map[string]string) (rules.Game, error) { return ultradamas.Game{}, nil },
	}}
}
