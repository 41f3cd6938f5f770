package chat

import "strings"

// PseudoWords returns the catalogues with every message wrapped in ⟦ ⟧:
// the pseudo-language of the tests, in which a line the bot sends that
// is not wholly ⟦...⟧ did not come from the catalogue.
func PseudoWords(def string) *Words {
	w, err := newWords(locales, def, func(s string) string { return "⟦" + s + "⟧" })
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
