package chat

import "strings"

// Observer is told of every command Handle answers, for an operator's
// metrics (package ops counts them for Prometheus). Handled is called on
// every command: it must be quick and must not block. Config.Observer nil
// tells nobody.
type Observer interface {
	// Handled: a command of platform (the session key's) was answered.
	// command is one of CommandNames, or "" for a message that names no
	// command of the language.
	Handled(platform, command string, o Outcome)
}

// LabelObserver is an Observer that is told each outcome by its Label
// (ops.Metrics.Handled is one).
type LabelObserver func(platform, command, outcome string)

// Handled implements Observer.
func (f LabelObserver) Handled(platform, command string, o Outcome) { f(platform, command, o.Label()) }

// Outcome is what became of a command.
type Outcome int

// The outcomes.
const (
	// Applied: the command did what it asks (a move played, a board shown).
	Applied Outcome = iota + 1
	// Refused: the command was refused with its reason; nothing changed.
	Refused
	// RateLimited: the user sent too many commands; nothing changed.
	RateLimited
	// Failed: the bot failed (the store, a damaged record, a bug);
	// nothing changed.
	Failed
)

// Label is the outcome's name for metrics: applied, refused, rate_limited
// or error.
func (o Outcome) Label() string {
	switch o {
	case Applied:
		return "applied"
	case Refused:
		return "refused"
	case RateLimited:
		return "rate_limited"
	}
	return "error"
}

// CommandNames lists the names of the commands of the language (not
// their aliases), in /help's order.
func CommandNames() []string {
	var out []string
	for _, c := range commandTable() {
		out = append(out, c.name)
	}
	return out
}

// outcome says what became of the command that got r.
func outcome(r Reply) Outcome {
	switch {
	case r.Limited:
		return RateLimited
	case r.failed:
		return Failed
	case r.Error:
		return Refused
	}
	return Applied
}

// commandName is the name of the command text names ("/m@MyBot c3-d4"
// names move), "" for none of the language's.
func (h *Handler) commandName(text string) string {
	fields := strings.Fields(text)
	if len(fields) == 0 || !strings.HasPrefix(fields[0], "/") {
		return ""
	}
	if c, _ := h.find(fields[0]); c != nil {
		return c.name
	}
	return ""
}

// find returns the command that the first word of a message names, nil
// for none, and the name as typed (lower case, without the slash and a
// bot's @name: "/play@MyBot" in Telegram groups is play).
func (h *Handler) find(word string) (*command, string) {
	typed, _, _ := strings.Cut(strings.ToLower(strings.TrimPrefix(word, "/")), "@")
	return h.cmds[typed], typed
}

// failure is the answer to a command the bot failed: one line, as fail,
// counted as Failed.
func failure(line string) Reply {
	r := fail(line)
	r.failed = true
	return r
}

// noObserver tells nobody.
type noObserver struct{}

func (noObserver) Handled(string, string, Outcome) {}
