// Package dump is the form in which every store gives and takes the bot's
// data, to move it from one store to another (bot migrate, bot backup's
// checks): [Item]s of the [Kinds], a [Tally] to compare a copy with its
// source, and [Copy] between an [Exporter] and an [Importer]. The bbolt
// store (package storage/bolt) and the etcd store (storage/etcdstore)
// both write and read it, and neither depends on the other.
package dump

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/sessions"
)

// Item is one record of a store in a form every store writes and reads
// the same, to move the bot's data from one store to another (bot
// migrate): Kind is one of Kinds, ID is unique within its kind and the
// same in every store (its parts joined by zero bytes), Value is the
// record's JSON as this package marshals it, so that equal records are
// equal bytes whatever store they come from.
type Item struct {
	Kind  string
	ID    string
	Value []byte
}

// The kinds of Item.
const (
	// KindCounter: ID "games", the last finished game's id (decimal), or
	// "tournaments", the last tournament's id.
	KindCounter = "counter"
	// KindLive: ID platform 0 channel 0 thread; a live sessions.Record
	// with all its actions.
	KindLive = "live"
	// KindGame: ID the game's id (decimal); its sessions.Record.
	KindGame = "games"
	// KindHistory: ID "user" 0 platform 0 user 0 game id, or "channel" 0
	// platform 0 channel 0 thread 0 game id; no value. The indexes of
	// the finished games.
	KindHistory = "history"
	// KindStanding: ID platform 0 user 0 game 0 period; a sessions.Standing.
	KindStanding = "standings"
	// KindLadder: ID platform 0 game 0 period 0 rating (decimal) 0 user;
	// a sessions.Standing. The ladders' index.
	KindLadder = "ladder"
	// KindName: ID platform 0 lower-case name; a sessions.User.
	KindName = "names"
	// KindPrefs: ID platform 0 user; {"v":1,"notify":true,"lang":"de"}.
	KindPrefs = "prefs"
	// KindRoute: ID platform 0 channel; {"v":1,"key":{...}}.
	KindRoute = "routes"
	// KindTournament: ID the tournament's id (decimal); its
	// sessions.Tournament (TournamentValue). The indexes of the active
	// tournaments, by channel and of a channel's active one are not
	// items: Import builds them again.
	KindTournament = "tournaments"
	// KindRated: ID platform 0 user 0 game 0 ended (unix nanoseconds,
	// decimal) 0 game id; a sessions.RatedGame. The rating history.
	KindRated = "rating_log"
	// KindMember: ID platform 0 user 0 game 0 period 0 community; no
	// value. The community ladders a player is on.
	KindMember = "community_member"
	// KindCommunityLadder: ID platform 0 community 0 game 0 period 0
	// rating (decimal) 0 user; a sessions.Standing. The community
	// ladders' index.
	KindCommunityLadder = "community_ladder"
	// KindLinkGeneration: ID platform 0 user; the user's web link
	// generation (decimal, above 0): /web revoke raised it.
	KindLinkGeneration = "link_generation"
	// KindReview: ID the finished game's id (decimal); its
	// sessions.ReviewRecord (ReviewValue).
	KindReview = "reviews"
)

// Kinds are the kinds of Item, in the order Export gives them. Request
// ids are not among them: they only guard against duplicate deliveries
// of the last day, and migrate runs with the bot stopped.
//
// A new kind is a constant here, one more entry in Kinds, an exporter in
// package bolt's (*Store).exporters and a case in its importItem; the
// same two in package etcdstore. bot migrate copies and compares it then.
func Kinds() []string {
	return []string{KindCounter, KindLive, KindGame, KindHistory, KindStanding, KindLadder, KindName, KindPrefs, KindRoute, KindTournament,
		KindRated, KindMember, KindCommunityLadder, KindLinkGeneration, KindReview}
}

// RecordValue is the Value of a live session or finished game: its JSON
// with the current record version when it has none.
func RecordValue(r *sessions.Record) ([]byte, error) {
	if r.V == 0 {
		c := *r
		c.V = sessions.RecordVersion
		r = &c
	}
	return json.Marshal(r)
}

// TournamentValue is the Value of the tournament stored as v under id:
// its JSON as PutTournament writes it. A record that does not decode, or
// that names another id or no channel, is an error wrapping
// sessions.ErrDamaged.
func TournamentValue(v []byte, id string) ([]byte, error) {
	t, err := Tournament(v, id)
	if err != nil {
		return nil, err
	}
	return json.Marshal(t)
}

// Tournament decodes the tournament stored as v under id. A record that
// does not decode, has an unknown version, or names another id or no
// channel, is an error wrapping sessions.ErrDamaged.
func Tournament(v []byte, id string) (*sessions.Tournament, error) {
	var t sessions.Tournament
	if err := json.Unmarshal(v, &t); err != nil {
		return nil, damage(fmt.Errorf("bad tournament: %w", err))
	}
	if t.V < 1 || t.V > sessions.TournamentVersion {
		return nil, damage(fmt.Errorf("tournament version %d, this bot reads 1 to %d", t.V, sessions.TournamentVersion))
	}
	if t.ID != id {
		return nil, damage(fmt.Errorf("the record says tournament %q", t.ID))
	}
	if k := t.Key; k.Platform == "" || k.Channel == "" || strings.ContainsRune(k.Platform+k.Channel, 0) {
		return nil, damage(fmt.Errorf("bad tournament channel %q", k.String()))
	}
	return &t, nil
}

func damage(err error) error { return fmt.Errorf("%w: %v", sessions.ErrDamaged, err) }

// SplitID splits an Item's ID into its n parts, or fails.
func SplitID(it Item, n int) ([]string, error) {
	p := strings.Split(it.ID, "\x00")
	if len(p) != n || p[0] == "" || p[1] == "" || it.Kind != KindLive && slices.Contains(p, "") {
		return nil, fmt.Errorf("%s %q: bad id", it.Kind, strings.ReplaceAll(it.ID, "\x00", "/"))
	}
	return p, nil
}

// JoinID joins the parts of an Item's ID.
func JoinID(parts ...string) string { return strings.Join(parts, "\x00") }

// Tally counts the items of a store by kind and keeps a digest of each,
// to check a copy against its source.
type Tally struct {
	Count map[string]int
	sums  map[string][sha256.Size]byte
}

// NewTally returns an empty Tally.
func NewTally() *Tally {
	return &Tally{Count: map[string]int{}, sums: map[string][sha256.Size]byte{}}
}

// Add counts it; the same kind and ID twice is an error.
func (t *Tally) Add(it Item) error {
	k := it.Kind + "\x00" + it.ID
	if _, ok := t.sums[k]; ok {
		return fmt.Errorf("%s %q twice", it.Kind, strings.ReplaceAll(it.ID, "\x00", "/"))
	}
	t.sums[k] = sha256.Sum256(it.Value)
	t.Count[it.Kind]++
	return nil
}

// Total is the number of items.
func (t *Tally) Total() int { return len(t.sums) }

// Diff describes the first differences of u from t (the copy from its
// source), at most five, or returns nil when every item is in both and
// equal.
func (t *Tally) Diff(u *Tally) error {
	var diffs []string
	show := func(k string) string {
		kind, id, _ := strings.Cut(k, "\x00")
		return kind + " " + strconv.Quote(strings.ReplaceAll(id, "\x00", "/"))
	}
	keys := make([]string, 0, len(t.sums))
	for k := range t.sums {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch v, ok := u.sums[k]; {
		case !ok:
			diffs = append(diffs, show(k)+" is missing")
		case v != t.sums[k]:
			diffs = append(diffs, show(k)+" differs")
		}
	}
	extra := 0
	for k := range u.sums {
		if _, ok := t.sums[k]; !ok {
			if extra++; extra == 1 {
				diffs = append(diffs, show(k)+" is not in the source")
			}
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	n := len(diffs)
	if len(diffs) > 5 {
		diffs = diffs[:5]
	}
	return fmt.Errorf("%d differences: %s", n+max(extra-1, 0), strings.Join(diffs, "; "))
}

// Exporter is a store that gives its records as Items (Store.Export).
type Exporter interface {
	Export(ctx context.Context, emit func(Item) error) error
}

// Importer is a store that takes Items (Store.Import), a batch at a time.
type Importer interface {
	Import(ctx context.Context, items []Item) error
}

// copyBatch is how many items Copy gives Import at a time.
const copyBatch = 2000

// Copy copies every record of from into to (which should be empty) and
// returns the tally of what it read.
func Copy(ctx context.Context, from Exporter, to Importer) (*Tally, error) {
	t := NewTally()
	batch := make([]Item, 0, copyBatch)
	err := from.Export(ctx, func(it Item) error {
		if err := t.Add(it); err != nil {
			return err
		}
		if batch = append(batch, it); len(batch) == copyBatch {
			if err := to.Import(ctx, batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = to.Import(ctx, batch)
	}
	return t, err
}

// TallyOf reads every record of s into a Tally.
func TallyOf(ctx context.Context, s Exporter) (*Tally, error) {
	t := NewTally()
	return t, s.Export(ctx, t.Add)
}
