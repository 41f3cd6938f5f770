package main

import (
	"flag"
	"strings"
	"testing"
)

// TestHelp: every way of asking for help prints to standard output and
// exits 0; a command's help lists every one of its flags.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"-help"}} {
		code, out, errs := runTool(args...)
		if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: bot [command] [flags]\n") {
			t.Errorf("%v: exit %d, output %q, errors %q", args, code, out, errs)
		}
		for _, c := range commands() {
			if !strings.Contains(out, "\n  bot "+c.name+" ") {
				t.Errorf("%v: %s is not listed", args, c.name)
			}
		}
	}
	for _, c := range commands() {
		for _, args := range [][]string{{"help", c.name}, {c.name, "--help"}, {c.name, "-h"}} {
			code, out, errs := runTool(args...)
			if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: bot "+c.name+" ") {
				t.Errorf("%v: exit %d, output %q, errors %q", args, code, out, errs)
				continue
			}
			// The flags the command defines: ask its flag set by parsing
			// an undefined flag (which answers before doing anything).
			err := c.run(t.Context(), []string{"--no-such-flag"}, nil, nil)
			fe, ok := err.(*flagError)
			if !ok {
				t.Fatalf("%s --no-such-flag: %v, want a flag error", c.name, err)
			}
			fe.fs.VisitAll(func(f *flag.Flag) {
				if !strings.Contains(out, "  -"+f.Name+" ") && !strings.Contains(out, "  -"+f.Name+"\n") {
					t.Errorf("%v: flag -%s is not shown:\n%s", args, f.Name, out)
				}
				if !strings.Contains(c.usage, "--"+f.Name) {
					t.Errorf("bot help: the usage of %s lacks --%s", c.name, f.Name)
				}
			})
		}
	}
}

// TestUsageErrors: an unknown command or flag is one line on standard
// error that says what to try, and exit code 2.
func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate"}, `bot: unknown command "frobnicate" (try: bot help)` + "\n"},
		{[]string{"help", "frobnicate"}, `bot: unknown command "frobnicate" (try: bot help)` + "\n"},
		{[]string{"--frob"}, "bot run: flag provided but not defined: -frob (try: bot help run)\n"},
		{[]string{"console", "--ass", "bob"}, "bot console: flag provided but not defined: -ass (try: bot help console)\n"},
		{[]string{"perft", "--depth", "x"}, `bot perft: invalid value "x" for flag -depth: parse error (try: bot help perft)` + "\n"},
		{[]string{"export", "--nope"}, "bot export: flag provided but not defined: -nope (try: bot help export)\n"},
	} {
		code, out, errs := runTool(tc.args...)
		if code != 2 || out != "" || errs != tc.want {
			t.Errorf("%v: exit %d, output %q, errors %q; want exit 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
}
