package console_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
)

// Example plays the start of a game of Spanish draughts between alice and
// bob, as `printf ... | bot console --as alice` does.
func Example() {
	dir, _ := os.MkdirTemp("", "console-example")
	defer os.RemoveAll(dir)
	store, err := bolt.Open(filepath.Join(dir, "bot.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer store.Close()
	h := chat.New(chat.Config{Sessions: sessions.New(sessions.Config{Store: store})})
	script := "/play spanish @bob color=white\n/as bob\n/accept\n/as alice\n/move 11-14\n/as bob\n/move e4-d5\n"
	console.Run(context.Background(), console.Config{Handler: h, In: strings.NewReader(script), Out: os.Stdout, As: "alice"})
	// Output:
	// alice> /play spanish @bob color=white
	// alice challenges bob to Spanish draughts; alice plays White; no clock, rated.
	// /accept to play, /decline to refuse; alice can /cancel.
	// alice> /as bob
	// You are now bob.
	// bob> /accept
	// Game on: Spanish draughts, alice (White) vs bob (Black); no clock, rated.
	// alice (White) to move: /move <move> (/moves lists them).
	//    a  b  c  d  e  f  g  h
	//  8 b     b     b     b     8
	//  7    b     b     b     b  7
	//  6 b     b     b     b     6
	//  5    .     .     .     .  5
	//  4 .     .     .     .     4
	//  3    w     w     w     w  3
	//  2 w     w     w     w     2
	//  1    w     w     w     w  1
	//    a  b  c  d  e  f  g  h
	// bob> /as alice
	// You are now alice.
	// alice> /move 11-14
	// alice (White) played d3-e4.
	// bob (Black) to move: /move <move> (/moves lists them).
	//    h  g  f  e  d  c  b  a
	//  1 w     w     w     w     1
	//  2    w     w     w     w  2
	//  3 w     w     .     w     3
	//  4    .     w     .     .  4
	//  5 .     .     .     .     5
	//  6    b     b     b     b  6
	//  7 b     b     b     b     7
	//  8    b     b     b     b  8
	//    h  g  f  e  d  c  b  a
	// alice> /as bob
	// You are now bob.
	// bob> /move e4-d5
	// e4-d5: the piece on e4 is not yours. Legal moves: a6-b5, c6-b5, c6-d5, e6-d5, e6-f5, … (/moves lists all 7).
}
