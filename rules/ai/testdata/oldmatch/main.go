// Command oldmatch plays level 5 of this tree (new) against level 5 of an
// older commit (old), to see what a faster move generator is worth. It is
// its own module, kept out of the build; the old tree goes in ./old under
// the module path oldbot:
//
//	git archive 9a701dd94aff64255157e36eafb0c3ca4587b8cc | tar -x -C old   # from an empty ./old
//	grep -rl github.com/boardgamebot/bot old --include=*.go --include=go.mod | xargs sed -i 's#github.com/boardgamebot/bot#oldbot#g'
//	GOFLAGS=-mod=mod go run . -games 40 -ms 200
//
// Each pair of games starts from the same two random plies, the new side
// White in one and Black in the other; a game still going after -plies
// plies is a draw. The last line is the score and the mean depth each
// side reached.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	newai "github.com/boardgamebot/bot/rules/ai"
	newgames "github.com/boardgamebot/bot/rules/games"
	oldai "oldbot/rules/ai"
	oldgames "oldbot/rules/games"
)

func main() {
	games := flag.Int("games", 40, "games")
	ms := flag.Int("ms", 100, "time per move in ms")
	game := flag.String("game", "spanish", "game")
	maxPlies := flag.Int("plies", 200, "plies before a draw is adjudicated")
	flag.Parse()
	cfgT := time.Duration(*ms) * time.Millisecond
	np := newai.New(newai.Config{TableMB: 16, MaxTime: cfgT, Searches: 1})
	op := oldai.New(oldai.Config{TableMB: 16, MaxTime: cfgT, Searches: 1})
	ng, _ := newgames.New(*game, nil)
	og, _ := oldgames.New(*game, nil)
	var newPts, wins, losses, draws int
	var newDepth, oldDepth, newMoves, oldMoves int
	for i := 0; i < *games; i++ {
		ns, os_ := ng.Start(0), og.Start(0)
		// The opening: two random plies, the same for both colour assignments.
		rng := rand.New(rand.NewPCG(uint64(i/2), 16))
		for k := 0; k < 2; k++ {
			ms := ns.Moves()
			m := ms[rng.IntN(len(ms))].Text
			var err error
			if ns, _, err = ns.Play(m); err != nil {
				panic(err)
			}
			if os_, _, err = os_.Play(m); err != nil {
				panic(err)
			}
		}
		newSeat := i % 2
		plies := 0
		for ; plies < *maxPlies && !ns.Outcome().Over; plies++ {
			seed := uint64(i*1000 + plies)
			var text string
			if ns.Turn() == newSeat {
				r, err := np.Search(context.Background(), ns, newai.Options{Level: 5, Seed: seed})
				if err != nil {
					panic(err)
				}
				text, newDepth, newMoves = r.Move.Text, newDepth+r.Depth, newMoves+1
			} else {
				r, err := op.Search(context.Background(), os_, oldai.Options{Level: 5, Seed: seed})
				if err != nil {
					panic(err)
				}
				text, oldDepth, oldMoves = r.Move.Text, oldDepth+r.Depth, oldMoves+1
			}
			var err error
			if ns, _, err = ns.Play(text); err != nil {
				panic(err)
			}
			if os_, _, err = os_.Play(text); err != nil {
				panic(err)
			}
		}
		out := ns.Outcome()
		res := "draw"
		switch {
		case out.Over && out.Winner == newSeat:
			res, wins, newPts = "new wins", wins+1, newPts+2
		case out.Over && out.Winner >= 0:
			res, losses = "old wins", losses+1
		default:
			draws, newPts = draws+1, newPts+1
		}
		fmt.Fprintf(os.Stdout, "game %2d new=%s plies=%d %s (%s)\n", i+1, ng.Seats()[newSeat], plies, res, out.Reason)
	}
	fmt.Printf("new %d wins, %d draws, %d losses: %.1f-%.1f; mean depth new %.2f old %.2f\n",
		wins, draws, losses, float64(newPts)/2, float64(2**games-newPts)/2,
		float64(newDepth)/float64(max(newMoves, 1)), float64(oldDepth)/float64(max(oldMoves, 1)))
}
