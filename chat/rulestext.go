package chat

import (
	"errors"

	"github.com/boardgamebot/bot/rules"
)

// rulesText words a rules error from the catalogue: message "Rules" + its
// code with the code's arguments, or, for an error without a code (one
// only a broken snapshot, record or FEN gives), a line for its kind. The
// rules' own English (Error, Msg) is for logs only and never shown.
func (p Speaker) rulesText(re *rules.Error) string {
	if re == nil {
		return ""
	}
	id := "Rules" + string(re.Code)
	if re.Code == "" {
		id = rulesKindID(re.Kind)
	}
	kv := make([]any, 0, len(re.Args))
	for _, a := range re.Args {
		kv = append(kv, a)
	}
	return p.T(id, kv...)
}

// rulesKindID is the message of a rules error kind, for errors without a
// code.
func rulesKindID(kind error) string {
	for _, k := range []struct {
		err error
		id  string
	}{
		{rules.ErrSyntax, "RulesKindSyntax"},
		{rules.ErrIllegal, "RulesKindIllegal"},
		{rules.ErrAmbiguous, "RulesKindAmbiguous"},
		{rules.ErrGameOver, "RulesKindGameOver"},
		{rules.ErrBadPosition, "RulesKindBadPosition"},
		{rules.ErrBadOption, "RulesKindBadOption"},
		{rules.ErrNotNow, "RulesKindNotNow"},
	} {
		if errors.Is(kind, k.err) {
			return k.id
		}
	}
	return "RulesKindOther"
}

// rulesIDs lists every message rulesText may word, for the catalogue tests.
func rulesIDs() []string {
	ids := []string{"RulesKindSyntax", "RulesKindIllegal", "RulesKindAmbiguous", "RulesKindGameOver",
		"RulesKindBadPosition", "RulesKindBadOption", "RulesKindNotNow", "RulesKindOther"}
	for _, c := range rules.Codes() {
		ids = append(ids, "Rules"+string(c))
	}
	return ids
}
