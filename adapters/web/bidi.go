package web

import "strings"

// bidiControls are the Unicode characters that change the direction of
// the text around them: the embeddings and overrides (U+202A to U+202E),
// the isolates (U+2066 to U+2069), the marks (U+200E, U+200F, U+061C).
// A name that carries one could reorder the line it is shown in (the
// status line, the page's title): pages show names without them.
var bidiControls = strings.NewReplacer(
	"\u202a", "", "\u202b", "", "\u202c", "", "\u202d", "", "\u202e", "",
	"\u2066", "", "\u2067", "", "\u2068", "", "\u2069", "",
	"\u200e", "", "\u200f", "", "\u061c", "")

// noBidi is s without its bidirectional controls.
func noBidi(s string) string {
	if !strings.ContainsAny(s, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c") {
		return s
	}
	return bidiControls.Replace(s)
}

// noBidiState takes the bidirectional controls out of what a state
// words (the players' names in it).
func noBidiState(st *State) {
	w := &st.Words
	w.Title, w.Players, w.Status, w.Last = noBidi(w.Title), noBidi(w.Players), noBidi(w.Status), noBidi(w.Last)
	for i := range w.Notes {
		w.Notes[i] = noBidi(w.Notes[i])
	}
	for i := range st.Seats {
		st.Seats[i].Player, st.Seats[i].Label = noBidi(st.Seats[i].Player), noBidi(st.Seats[i].Label)
	}
}
