package console_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// heldComputer thinks until the test releases it, then plays the first
// legal move.
type heldComputer struct{ release chan struct{} }

func (c heldComputer) Move(ctx context.Context, s rules.State, level int, seed uint64) (rules.Move, error) {
	select {
	case <-c.release:
		return s.Moves()[0], nil
	case <-ctx.Done():
		return rules.Move{}, ctx.Err()
	}
}

// console runs a console against a held computer, with its input and
// output as pipes: lines returns what it prints, line by line; done gets
// Run's result.
type consoleRun struct {
	in      *io.PipeWriter
	lines   chan string
	done    chan error
	release chan struct{}
}

func startConsole(t *testing.T, prompt bool) *consoleRun {
	t.Helper()
	r := &consoleRun{lines: make(chan string, 100), done: make(chan error, 1), release: make(chan struct{})}
	n := console.NewNotifier()
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games, Notifier: n,
		Computer: heldComputer{r.release}, Rand: func(int) int { return 0 }})
	t.Cleanup(svc.Close)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r.in = inW
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
		close(r.lines)
	}()
	go func() {
		r.done <- console.Run(context.Background(), console.Config{Handler: chat.New(chat.Config{Sessions: svc}),
			In: inR, Out: outW, As: "alice", Prompt: prompt, Notices: n})
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	return r
}

func (r *consoleRun) say(t *testing.T, line string) {
	t.Helper()
	if _, err := fmt.Fprintln(r.in, line); err != nil {
		t.Fatal(err)
	}
}

// expect waits for a printed line that holds want; a line that holds
// never first fails the test.
func (r *consoleRun) expect(t *testing.T, want, never string) {
	t.Helper()
	timeout := time.After(10 * time.Second) // a guard against a hang, not a synchronisation
	for {
		select {
		case l, ok := <-r.lines:
			if !ok {
				t.Fatalf("the console stopped before printing %q", want)
			}
			if never != "" && strings.Contains(l, never) {
				t.Fatalf("%q came before %q", l, want)
			}
			if strings.Contains(l, want) {
				return
			}
		case <-timeout:
			t.Fatalf("no %q", want)
		}
	}
}

// TestMoveAcknowledgedWhileTheComputerThinks: your move is printed at once;
// the computer's reply follows when it is ready. At a terminal you may go
// on typing meanwhile; the end of input waits for the reply.
func TestMoveAcknowledgedWhileTheComputerThinks(t *testing.T) {
	for _, prompt := range []bool{false, true} {
		t.Run(fmt.Sprintf("prompt=%v", prompt), func(t *testing.T) {
			r := startConsole(t, prompt)
			r.say(t, "/play count bot color=white target=9")
			r.expect(t, "Game on: Counting game, alice (White) vs Computer (Black)", "")
			r.say(t, "/move 1")
			r.expect(t, "alice (White) played 1.", "Computer (Black) played")
			r.expect(t, "Computer (Black) is thinking…", "Computer (Black) played")
			if prompt {
				// The console answers while the computer thinks.
				r.say(t, "/move 2")
				r.expect(t, "It is Computer's turn", "Computer (Black) played")
			}
			close(r.release)
			r.expect(t, "Computer (Black) played 1.", "")
			r.expect(t, "alice (White) to move", "")
			r.in.Close()
			if err := <-r.done; err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestEndOfInputWaitsForTheComputer: a script that ends on a move gets the
// computer's reply printed before the console stops.
func TestEndOfInputWaitsForTheComputer(t *testing.T) {
	r := startConsole(t, true)
	r.say(t, "/play count bot color=white target=9")
	r.say(t, "/move 1")
	r.expect(t, "alice (White) played 1.", "")
	r.in.Close()
	select {
	case err := <-r.done:
		t.Fatalf("the console stopped (%v) before the computer's reply", err)
	default:
	}
	close(r.release)
	r.expect(t, "Computer (Black) played 1.", "")
	if err := <-r.done; err != nil {
		t.Fatal(err)
	}
}
