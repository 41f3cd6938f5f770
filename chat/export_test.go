package chat

import (
	"strings"

	"github.com/boardgamebot/bot/sessions"
)

// PseudoCatalogues returns the catalogues with every message wrapped in ⟦ ⟧:
// the pseudo-language of the tests, in which a line the bot sends that
// is not wholly ⟦...⟧ did not come from the catalogue.
func PseudoCatalogues(def string) *Catalogues {
	w, err := newCatalogues(locales, def, func(s string) string { return "⟦" + s + "⟧" })
	if err != nil {
		panic(err)
	}
	return w
}

// FromCatalogue reports whether a line the bot sent in the pseudo-language
// came from the catalogue: it starts with ⟦ and ends with ⟧ (messages put
// together in one line, or one inside another, keep that shape).
func FromCatalogue(line string) bool {
	return strings.HasPrefix(line, "⟦") && strings.HasSuffix(line, "⟧")
}

// TourSpec reads the words after /tournament new as the command does:
// the spec for the service, or the refusal.
func (h *Handler) TourSpec(lang string, args []string) (sessions.TournamentSpec, *Reply) {
	return h.tourSpec(Message{sp: h.words.In(lang)}, args)
}

// ErrorReply words an error of the service as a command's refusal.
func (h *Handler) ErrorReply(cmd string, m Message, err error) Reply {
	return h.errorReply(cmd, m, err)
}
