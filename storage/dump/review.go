package dump

import (
	"encoding/json"
	"fmt"

	"github.com/boardgamebot/bot/sessions"
)

// ReviewVersion is the version of the stored review records.
const ReviewVersion = 1

// Review decodes the review stored as v for the game id. A record that
// does not decode, has an unknown version, or names another game, is an
// error wrapping sessions.ErrDamaged.
func Review(v []byte, id string) (*sessions.ReviewRecord, error) {
	var r sessions.ReviewRecord
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, damage(fmt.Errorf("bad review: %w", err))
	}
	if r.V < 1 || r.V > ReviewVersion {
		return nil, damage(fmt.Errorf("review version %d, this bot reads 1 to %d", r.V, ReviewVersion))
	}
	if r.Game != id {
		return nil, damage(fmt.Errorf("the review says game %q", r.Game))
	}
	return &r, nil
}

// ReviewValue is the Value of the review stored as v for the game id:
// its JSON as PutReview writes it.
func ReviewValue(v []byte, id string) ([]byte, error) {
	r, err := Review(v, id)
	if err != nil {
		return nil, err
	}
	return json.Marshal(r)
}
