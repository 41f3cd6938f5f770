package chat_test

import (
	"math/rand/v2"
	"testing"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// benchGamePlies is how many moves BenchmarkMoveReply plays in one game
// before it starts another (outside the timer).
const benchGamePlies = 40

// BenchmarkMoveReply measures one /move through the Handler, with its
// reply's text: a Spanish draughts game between two people on an
// in-memory store. The moves are legal moves picked at random (fixed
// seed) among those that do not end the game, played by the player to
// move; every benchGamePlies moves the timer stops, White resigns and a
// new game starts (/play, /accept), so that any b.N finds a move and
// every move is played at ply 0 to 39.
//
//	go test ./chat -run '^$' -bench MoveReply -benchtime 2000x
func BenchmarkMoveReply(b *testing.B) {
	ctx := b.Context()
	key := sessions.Key{Platform: "bench", Channel: "room"}
	players := []sessions.User{{ID: "id-alice", Name: "alice"}, {ID: "id-bob", Name: "bob"}}
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Rand: func(int) int { return 0 }})
	defer svc.Close()
	h := chat.New(chat.Config{Sessions: svc})
	say := func(seat int, text string) chat.Reply {
		r := h.Handle(ctx, chat.Message{Key: key, User: players[seat], Text: text})
		if r.Error {
			b.Fatalf("%s: %q: %s", players[seat].Name, text, r.Text())
		}
		return r
	}
	start := func() {
		say(0, "/play spanish @bob color=white")
		say(1, "/accept")
	}

	game, err := games.New("spanish", nil)
	if err != nil {
		b.Fatal(err)
	}
	type move struct {
		seat int
		text string
	}
	var moves []move
	r := rand.New(rand.NewPCG(15, 15))
	for st := game.Start(0); len(moves) < benchGamePlies; {
		ms := st.Moves()
		r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
		found := false
		for _, m := range ms {
			next, _, err := st.Play(m.Text)
			if err != nil {
				b.Fatal(err)
			}
			if !next.Outcome().Over {
				moves = append(moves, move{seat: st.Turn(), text: "/move " + m.Text})
				st, found = next, true
				break
			}
		}
		if !found {
			b.Fatalf("ply %d: every move ends the game", len(moves)+1)
		}
	}

	start()
	b.ResetTimer()
	n := 0
	for i := range b.N {
		if i > 0 && i%benchGamePlies == 0 {
			b.StopTimer()
			say(0, "/resign")
			start()
			b.StartTimer()
		}
		m := moves[i%benchGamePlies]
		n += len(say(m.seat, m.text).Text())
	}
	b.StopTimer()
	if n == 0 {
		b.Fatal("no reply text")
	}
}
