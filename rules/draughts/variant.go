package draughts

// DrawRule selects a game's automatic draws.
type DrawRule uint8

// The automatic draw rules.
const (
	// NoDraws: draws only by agreement (dame).
	NoDraws DrawRule = iota
	// SpanishDraws: threefold repetition, 40 king-only moves without a
	// capture, three kings against one not winning within 13 moves.
	SpanishDraws
	// DamasDraws: both sides have the same number of pieces, all kings,
	// at most 2 each.
	DamasDraws
)

// Variant holds what differs between the draughts games. It is a small
// comparable value; the generator reads its fields.
type Variant struct {
	// ID is the game id: "spanish", "damas" or "dame".
	ID string
	// Dark is set when the game is played on the dark squares (a1
	// playable); Spanish draughts uses the light squares.
	Dark bool
	// Flying kings move and capture at any distance; otherwise a king
	// steps one square and captures an adjacent piece.
	Flying bool
	// LandNext makes a flying king's capture land on the square just
	// beyond the captured piece (damas) instead of any empty square beyond.
	LandNext bool
	// Quality: among the series capturing the most pieces, those capturing
	// the most kings must be chosen (spanish, dame).
	Quality bool
	// Huff: capturing is not forced; the opponent may huff instead (damas huff=yes).
	Huff bool
	// Draws selects the automatic draws.
	Draws DrawRule
}

// The games of the rules page.
var (
	// Spanish is Spanish draughts.
	Spanish = Variant{ID: "spanish", Flying: true, Quality: true, Draws: SpanishDraws}
	// Damas is the family game Damas without huffing.
	Damas = Variant{ID: "damas", Dark: true, Flying: true, LandNext: true, Draws: DamasDraws}
	// DamasHuff is Damas with huffing (huff=yes).
	DamasHuff = Variant{ID: "damas", Dark: true, Flying: true, LandNext: true, Huff: true, Draws: DamasDraws}
	// Dame is German Dame with flying kings (flying=yes).
	Dame = Variant{ID: "dame", Dark: true, Flying: true, Quality: true}
	// DameShort is German Dame with short kings (flying=no).
	DameShort = Variant{ID: "dame", Dark: true, Quality: true}
)

// Options returns the variant's options as the registry writes them.
func (v Variant) Options() map[string]string {
	switch v.ID {
	case "damas":
		return map[string]string{"huff": yesNo(v.Huff)}
	case "dame":
		return map[string]string{"flying": yesNo(v.Flying)}
	}
	return map[string]string{}
}

// Name is the game's name for people.
func (v Variant) Name() string {
	switch v.ID {
	case "damas":
		return "Damas"
	case "dame":
		return "Dame"
	}
	return "Spanish draughts"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
