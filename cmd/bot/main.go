// Command bot is the board-game chat bot: with no platform token it starts
// the console chat; with tokens it serves Discord and/or Telegram. Its other
// subcommands are tools for players and for checking the engines.
//
//	bot [run] [--config FILE]     serve (console when no token is set)
//	bot console [--as NAME]       the chat on this terminal
//	bot perft --game ID [--opt k=v] [--fen FEN | --setup FORMATIONS] --depth N
//	bot moves --game ID [--opt k=v] [--fen FEN | --setup FORMATIONS]
//	bot render --game ID [--opt k=v] [--fen FEN] [--play MOVE] [--theme T] --out FILE.png
//	bot backup [--config FILE] BACKUP.db
//	bot export [--config FILE] [--db FILE] [--platform P] [--out FILE] GAME-ID
//	bot migrate [--config FILE] --to etcd|bbolt [--force]
//	bot doctor [--config FILE]    check the set-up, one line per check
//	bot help [COMMAND]            the commands, or one with its flags
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
)

// command is one subcommand: it reads its flags from args (with
// parseFlags) and writes its output to stdout; errors go back to main,
// which prints them on one line.
type command struct {
	name  string
	usage string
	// note is more help, printed before the flags by bot help NAME.
	note string
	run  func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"run", "run [--config FILE]: serve Discord/Telegram, or the console when no token is set", "", cmdRun},
		{"console", "console [--config FILE] [--as NAME]: play in this terminal", "", cmdConsole},
		{"perft", "perft --game ID [--opt key=value ...] [--fen FEN | --setup FORMATIONS] --depth N: count the moves to a depth", startNote, cmdPerft},
		{"moves", "moves --game ID [--opt key=value ...] [--fen FEN | --setup FORMATIONS]: list the legal moves", startNote, cmdMoves},
		{"render", "render --game ID [--opt key=value ...] [--fen FEN | --setup FORMATIONS] [--play MOVE ...] [--theme light|dark] [--size PX] [--viewer SEAT] [--numbers] --out FILE.png: draw a position", "", cmdRender},
		{"backup", "backup [--config FILE] BACKUP.db: copy the database consistently, even while the bot runs", "", cmdBackup},
		{"export", "export [--config FILE] [--db FILE] [--platform P] [--out FILE] GAME-ID: a finished game as PDN (draughts) or its record", "", cmdExport},
		{"migrate", "migrate [--config FILE] --to etcd|bbolt [--force]: copy the bbolt file into etcd, or etcd back into the bbolt file, and check the copy", migrateNote, cmdMigrate},
		{"doctor", "doctor [--config FILE]: check the set-up (config, database or etcd, tokens, webhook, permissions), one line per check", doctorNote, cmdDoctor},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := runMain(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// runMain dispatches to a subcommand and returns the exit code: 0, 1 when
// the command failed, 2 for an unknown command or flag. bot help, -h and
// --help print the commands; bot help NAME and bot NAME --help print one
// with its flags.
func runMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	name := "run"
	if len(args) > 0 {
		switch a := args[0]; {
		case a == "help" && len(args) > 1:
			// bot help NAME is bot NAME --help.
			name, args = args[1], []string{"--help"}
		case a == "help" || a == "-h" || a == "--help" || a == "-help":
			usage(stdout)
			return 0
		case a != "" && a[0] != '-':
			name, args = a, args[1:]
		}
	}
	i := slices.IndexFunc(commands(), func(c command) bool { return c.name == name })
	if i < 0 {
		fmt.Fprintf(stderr, "bot: unknown command %q (try: bot help)\n", clipArg(name))
		return 2
	}
	c := commands()[i]
	err := c.run(ctx, args, stdout, stderr)
	var fe *flagError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &fe) && errors.Is(err, flag.ErrHelp):
		fmt.Fprintf(stdout, "usage: bot %s\n%s", c.usage, c.note)
		fe.fs.SetOutput(stdout)
		fe.fs.PrintDefaults()
		return 0
	case errors.As(err, &fe):
		fmt.Fprintf(stderr, "bot %s: %v (try: bot help %s)\n", name, clipArg(err.Error()), name)
		return 2
	}
	fmt.Fprintf(stderr, "bot %s: %v\n", name, err)
	return 1
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: bot [command] [flags]")
	for _, c := range commands() {
		fmt.Fprintf(w, "  bot %s\n", c.usage)
	}
	fmt.Fprintln(w, "bot help COMMAND (or bot COMMAND --help) shows a command's flags.")
}

// flagError is a subcommand's flag set refusing its arguments: -h or
// --help (flag.ErrHelp), or a flag it does not define or a bad value.
type flagError struct {
	fs  *flag.FlagSet
	err error
}

func (e *flagError) Error() string { return e.err.Error() }
func (e *flagError) Unwrap() error { return e.err }

// parseFlags parses a subcommand's flags quietly (the flag package prints
// nothing): an error is a *flagError for runMain to answer.
func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return &flagError{fs: fs, err: err}
	}
	return nil
}

// clipArg keeps an echoed argument to one short line.
func clipArg(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return '?'
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
	if len(s) > 120 {
		s = strings.ToValidUTF8(s[:120], "") + "…"
	}
	return s
}
