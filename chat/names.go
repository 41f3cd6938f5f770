package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/boardgamebot/bot/sessions"
)

// MaxName is the most characters of a name a person goes by where the
// platform leaves the choice to them (the console's /as, an unresolved
// @name).
const MaxName = 32

// IsComputerName reports whether name, with or without a leading @, is one
// of the computer's names in any case: "bot", "computer" and the name its
// seat shows. Challenging one of them always means the computer.
func IsComputerName(name string) bool {
	name = strings.TrimPrefix(name, "@")
	for _, c := range []string{"bot", "computer", sessions.ComputerUser().Name} {
		if strings.EqualFold(name, c) {
			return true
		}
	}
	return false
}

// CheckName says why name, with or without a leading @, cannot be a
// person's name (a *NameError), or returns nil: a name is 1 to MaxName
// letters, digits, '_', '-' and '.', and not one of the computer's names.
func CheckName(name string) error {
	name = strings.TrimPrefix(name, "@")
	switch {
	case name == "":
		return &NameError{Problem: "NameEmpty", Name: name}
	case !utf8.ValidString(name):
		return &NameError{Problem: "NameNotUTF8", Name: name}
	case utf8.RuneCountInString(name) > MaxName:
		return &NameError{Problem: "NameTooLong", Name: name}
	case strings.ContainsFunc(name, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '.'
	}):
		return &NameError{Problem: "NameChars", Name: name}
	case IsComputerName(name):
		return &NameError{Problem: "NameComputer", Name: name}
	}
	return nil
}

// NameError is why a name cannot be: Problem is the catalogue message
// that says it (Speaker.NameProblem words it).
type NameError struct {
	Problem string
	Name    string
}

func (e *NameError) Error() string { return fmt.Sprintf("bad name %q: %s", e.Name, e.Problem) }

// NameProblem words why a name cannot be (an error of CheckName).
func (p Speaker) NameProblem(err error) string {
	var ne *NameError
	if errors.As(err, &ne) {
		return p.T(ne.Problem, "Max", MaxName, "Name", ne.Name)
	}
	return err.Error()
}

// Spelling returns how name (in any case) is written for the person who
// goes by it: as a seat or an invitation of the session at key has it,
// else as the store has it from their last finished game, else name
// itself. A person keeps one spelling.
func (h *Handler) Spelling(ctx context.Context, key sessions.Key, name string) string {
	if s, err := h.svc.Look(ctx, key); err == nil {
		for _, u := range append(append([]sessions.User{s.Record.Challenger}, s.Record.Seats...), s.Record.Invited...) {
			if !u.Computer && strings.EqualFold(u.Name, name) {
				return u.Name
			}
		}
	}
	u, ok, err := h.svc.FindUser(ctx, key.Platform, name)
	if err != nil || !ok || !strings.EqualFold(u.Name, name) {
		return name
	}
	return u.Name
}
