package ai_test

import (
	"context"
	"fmt"

	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/rules/games"
)

// The computer finds the Spanish shot f3-g4: h5xf3 is forced, then
// g2xe4xc6 takes two men.
func ExamplePlayer_Move() {
	g, _ := games.New("spanish", nil)
	s, _ := g.Load("W:Wf3,g2,h1:Bh5,d5,a8")
	p := ai.New(ai.Config{TableMB: 1})
	m, err := p.Move(context.Background(), s, 4, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _, _ = s.Play(m.Text)
	fmt.Println(m.Text, "then", s.Moves()[0].Text)
	// Output: f3-g4 then h5xf3
}
