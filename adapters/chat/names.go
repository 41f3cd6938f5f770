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

// CheckName says in one line why name, with or without a leading @, cannot
// be a person's name, or returns nil: a name is 1 to MaxName letters,
// digits, '_', '-' and '.', and not one of the computer's names.
func CheckName(name string) error {
	name = strings.TrimPrefix(name, "@")
	switch {
	case name == "":
		return errors.New("a name is needed")
	case !utf8.ValidString(name):
		return errors.New("a name must be valid UTF-8 text")
	case utf8.RuneCountInString(name) > MaxName:
		return fmt.Errorf("a name is at most %d letters", MaxName)
	case strings.ContainsFunc(name, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '.'
	}):
		return errors.New("a name may hold only letters, digits, '_', '-' and '.'")
	case IsComputerName(name):
		return fmt.Errorf("%q is the computer's name", name)
	}
	return nil
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
