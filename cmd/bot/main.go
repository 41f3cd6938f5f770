// Command bot is the board-game chat bot: with no platform token it starts
// the console chat; with tokens it serves Discord and/or Telegram. Its other
// subcommands are tools for players and for checking the engines.
//
//	bot [run] [--config FILE]     serve (console when no token is set)
//	bot console [--as NAME]       the chat on this terminal
//	bot perft --game ID [--opt k=v] [--fen FEN | --setup FORMATIONS] --depth N
//	bot moves --game ID [--opt k=v] [--fen FEN | --setup FORMATIONS]
//	bot render --game ID [--opt k=v] [--fen FEN] [--theme T] --out FILE.png
//	bot backup [--config FILE] BACKUP.db
//	bot export [--config FILE] [--db FILE] [--platform P] [--out FILE] GAME-ID
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// command is one subcommand: it reads its flags from args and writes its
// output to stdout; errors go back to main, which prints them on one line.
type command struct {
	name  string
	usage string
	run   func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"run", "run [--config FILE]: serve Discord/Telegram, or the console when no token is set", cmdRun},
		{"console", "console [--config FILE] [--as NAME]: play in this terminal", cmdConsole},
		{"perft", "perft --game ID [--opt key=value ...] [--fen FEN | --setup FORMATIONS] --depth N: count the moves to a depth", cmdPerft},
		{"moves", "moves --game ID [--opt key=value ...] [--fen FEN | --setup FORMATIONS]: list the legal moves", cmdMoves},
		{"render", "render --game ID [--opt key=value ...] [--fen FEN] [--theme T] --out FILE.png: draw a position", cmdRender},
		{"backup", "backup [--config FILE] BACKUP.db: copy the database consistently, even while the bot runs", cmdBackup},
		{"export", "export [--config FILE] [--db FILE] [--platform P] [--out FILE] GAME-ID: a finished game as PDN (draughts) or its record", cmdExport},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := runMain(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// runMain dispatches to a subcommand and returns the exit code.
func runMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	name := "run"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	if name == "help" || name == "-h" || name == "--help" {
		usage(stdout)
		return 0
	}
	for _, c := range commands() {
		if c.name == name {
			if err := c.run(ctx, args, stdout, stderr); err != nil {
				fmt.Fprintf(stderr, "bot %s: %v\n", name, err)
				return 1
			}
			return 0
		}
	}
	fmt.Fprintf(stderr, "bot: unknown command %q (try: bot help)\n", name)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: bot [command] [flags]")
	for _, c := range commands() {
		fmt.Fprintf(w, "  bot %s\n", c.usage)
	}
}
