package render_test

import (
	"bytes"
	"fmt"
	"image/gif"
	"image/png"
	"log"

	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
)

// The picture after a move, from the side of the player to move.
func ExampleRenderer_PNG() {
	g, err := games.New("spanish", nil)
	if err != nil {
		log.Fatal(err)
	}
	st := g.Start(0)
	st, m, err := st.Play(st.Moves()[0].Text)
	if err != nil {
		log.Fatal(err)
	}
	r := render.New() // one per program: it caches what it draws
	data, err := r.PNG(st.View(), &m, -1, render.Options{Theme: render.Dark, Numbers: true})
	if err != nil {
		log.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%dx%d PNG\n", cfg.Width, cfg.Height)
	// Output: 512x512 PNG
}

// A replay: the start, then the position after each move.
func ExampleRenderer_Replay() {
	g, err := games.New("halma", map[string]string{"size": "8"})
	if err != nil {
		log.Fatal(err)
	}
	st := g.Start(0)
	frames := []rules.View{st.View()}
	var moves []rules.Move
	for i := 0; i < 4; i++ {
		var m rules.Move
		st, m, err = st.Play(st.Moves()[0].Text)
		if err != nil {
			log.Fatal(err)
		}
		frames, moves = append(frames, st.View()), append(moves, m)
	}
	data, err := render.New().Replay(frames, moves, render.Options{})
	if err != nil {
		log.Fatal(err)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(anim.Image), "frames")
	// Output: 5 frames
}
