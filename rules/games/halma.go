package games

import (
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/halma"
)

// halmaEntries lists the games of package rules/halma.
func halmaEntries() []entry {
	return []entry{{
		info: Info{
			ID:      "halma",
			Name:    "Halma",
			Players: []int{2, 4},
			Summary: "move all your pieces into the opposite camp by steps and jumps",
			Options: []Option{
				{Key: "size", Default: "16", Values: []string{"8", "10", "16"}, Help: "board size: 16 is the classic game"},
				{Key: "players", Default: "2", Values: []string{"2", "4"}, Help: "four players only on size 16"},
				{Key: "leavehome", Default: "auto", Values: []string{"auto", "off", "10", "20", "30", "40", "50", "60", "80", "100"},
					Help: "lose with a piece still at home after this many moves (auto: 30 on 8, 50 on 10, off on 16)"},
			},
		},
		make: func(opts map[string]string) (rules.Game, error) {
			g, err := halma.NewFromOptions(opts)
			if err != nil {
				return nil, err
			}
			return g, nil
		},
	}}
}
