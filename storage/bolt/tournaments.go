package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/bbolt"
)

// Tournaments: each is one JSON record ({"v":1,...}) under its id (8
// bytes) in bucket tournaments, whose sequence gives the ids. Bucket
// tour_active holds the ids of the tournaments in sign-up or running,
// tour_by_channel platform 0 channel 0 id: start-up and a channel's
// commands read those, not every tournament ever held. Bucket tour_open
// is a unique index, platform 0 channel 0 -> the id of the channel's
// active tournament: a write that would make a second one active there
// fails (see sessions.Store.PutTournament). Opening a file of an older
// bot creates the buckets (createBuckets; tour_open filled from
// tour_active); the schema stays 2.
var (
	bTours      = []byte("tournaments")     // id (8 bytes) -> tournament
	bTourActive = []byte("tour_active")     // id (8 bytes) -> nothing, while sign-up or running
	bTourByChan = []byte("tour_by_channel") // platform 0 channel 0 id (8 bytes) -> nothing
	bTourOpen   = []byte("tour_open")       // platform 0 channel 0 -> id (8 bytes) of its active tournament
)

// fillTourOpen fills the new bucket tour_open of a file written before it
// from tour_active (oldest first: the newest active tournament of a
// channel holds it, should an older bot have let two be active there).
func fillTourOpen(tx *bbolt.Tx) error {
	tours, open := tx.Bucket(bTours), tx.Bucket(bTourOpen)
	active := tx.Bucket(bTourActive)
	if tours == nil || active == nil {
		return nil
	}
	return active.ForEach(func(id, _ []byte) error {
		v := tours.Get(id)
		if v == nil {
			return nil
		}
		t, err := decodeTournament(v)
		if err != nil {
			return nil // damaged: its reads say so; it holds no channel
		}
		ch, err := tourChannel(t.Key)
		if err != nil {
			return nil
		}
		return open.Put(ch, bytes.Clone(id))
	})
}

// openConflict is the error of a write that would make a second
// tournament active in a channel.
func openConflict(k sessions.Key, other []byte) error {
	return fmt.Errorf("storage: tournament %d is active in %s channel %s: %w (%w)", binary.BigEndian.Uint64(other), k.Platform, k.Channel, sessions.ErrTournamentOpen, sessions.ErrConflict)
}

// tourID is the key of the tournament id, or false when id is not one.
func tourID(id string) ([]byte, bool) {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n == 0 {
		return nil, false
	}
	return u64(n), true
}

// tourChannel is the by-channel index prefix of the channel of key.
func tourChannel(k sessions.Key) ([]byte, error) {
	if k.Platform == "" || k.Channel == "" || strings.ContainsRune(k.Platform+k.Channel, 0) {
		return nil, fmt.Errorf("storage: bad tournament channel %q", k.String())
	}
	return join(k.Platform, k.Channel), nil
}

// decodeTournament reads a stored tournament (in its transaction).
func decodeTournament(v []byte) (*sessions.Tournament, error) {
	var t sessions.Tournament
	if err := json.Unmarshal(v, &t); err != nil {
		return nil, damage(fmt.Errorf("bad tournament: %w", err))
	}
	if t.V < 1 || t.V > sessions.TournamentVersion {
		return nil, damage(fmt.Errorf("tournament version %d, this bot reads 1 to %d", t.V, sessions.TournamentVersion))
	}
	return &t, nil
}

// putTournament writes t in tx, compare-and-set on t.Rev (see
// sessions.Tournament.Rev), and its indexes; a new one (no ID) gets the
// next id of the sequence in t.ID. Nothing is written when it fails: a
// conflict wraps sessions.ErrConflict.
func putTournament(tx *bbolt.Tx, t *sessions.Tournament) error {
	ch, err := tourChannel(t.Key)
	if err != nil {
		return err
	}
	tours, open := tx.Bucket(bTours), tx.Bucket(bTourOpen)
	var id []byte
	var oldCh []byte // the channel whose active tournament t was
	if t.ID == "" {
		if t.Rev != 1 {
			return fmt.Errorf("storage: new tournament at rev %d: %w", t.Rev, sessions.ErrConflict)
		}
		if other := open.Get(ch); other != nil && t.Status.Active() {
			return openConflict(t.Key, other)
		}
		n, err := tours.NextSequence()
		if err != nil {
			return err
		}
		id, t.ID = u64(n), strconv.FormatUint(n, 10)
		if tours.Get(id) != nil {
			// Never over another tournament: the sequence is behind the
			// records (a file pieced together by hand).
			return fmt.Errorf("storage: the tournament counter (%d) is behind its records: %w", n, sessions.ErrDamaged)
		}
	} else {
		var ok bool
		if id, ok = tourID(t.ID); !ok || tours.Get(id) == nil {
			return fmt.Errorf("storage: tournament %q: %w", t.ID, sessions.ErrNotFound)
		}
		old, err := decodeTournament(tours.Get(id))
		if err != nil {
			return fmt.Errorf("storage: tournament %s: %w", t.ID, err)
		}
		if old.Rev != t.Rev-1 {
			return fmt.Errorf("storage: tournament %s at rev %d, not %d: %w", t.ID, old.Rev, t.Rev-1, sessions.ErrConflict)
		}
		oc, err := tourChannel(old.Key)
		if err == nil && !bytes.Equal(oc, ch) {
			if err := tx.Bucket(bTourByChan).Delete(append(oc, id...)); err != nil {
				return err
			}
		}
		if err == nil && old.Status.Active() {
			oldCh = oc
		}
	}
	// The unique index of active tournaments by channel: t claims its
	// channel when it becomes active there (when it stays active there, it
	// takes the channel only when nobody holds it: a file of an older bot)
	// and gives it up when it stops being active or moves.
	holder := open.Get(ch)
	switch {
	case t.Status.Active() && holder == nil:
		if err := open.Put(ch, id); err != nil {
			return err
		}
	case t.Status.Active() && !bytes.Equal(holder, id) && !bytes.Equal(oldCh, ch):
		return openConflict(t.Key, holder)
	}
	if oldCh != nil && (!t.Status.Active() || !bytes.Equal(oldCh, ch)) && bytes.Equal(open.Get(oldCh), id) {
		if err := open.Delete(oldCh); err != nil {
			return err
		}
	}
	return writeTournament(tx, id, ch, t)
}

// writeTournament writes t under id (8 bytes), and its entries in the
// indexes of active tournaments and by channel (ch, its tourChannel);
// tour_open is the caller's.
func writeTournament(tx *bbolt.Tx, id, ch []byte, t *sessions.Tournament) error {
	tours := tx.Bucket(bTours)
	if t.V == 0 {
		t.V = sessions.TournamentVersion
	}
	v, err := json.Marshal(t)
	if err != nil {
		return err
	}
	if err := tours.Put(id, v); err != nil {
		return err
	}
	if err := tx.Bucket(bTourByChan).Put(append(ch, id...), nil); err != nil {
		return err
	}
	if t.Status.Active() {
		return tx.Bucket(bTourActive).Put(id, nil)
	}
	return tx.Bucket(bTourActive).Delete(id)
}

// applyTournament writes c.Tournament in the transaction of the change
// (apply): with a finished game of that tournament, the game's id n goes
// into its TourGame first. The tournament written is kept in r.tour.
func applyTournament(tx *bbolt.Tx, r *commitReq) error {
	t := r.c.Tournament.Clone()
	if f := r.c.Finished; f != nil && f.Tour != nil && f.Tour.ID == t.ID &&
		f.Tour.Round >= 1 && f.Tour.Round <= len(t.Played) && f.Tour.Board >= 0 && f.Tour.Board < len(t.Played[f.Tour.Round-1].Games) {
		t.Played[f.Tour.Round-1].Games[f.Tour.Board].GameID = strconv.FormatUint(r.id, 10)
	}
	if err := putTournament(tx, t); err != nil {
		return err
	}
	r.tour = t
	return nil
}

// PutTournament implements sessions.Store.
func (s *Store) PutTournament(ctx context.Context, t *sessions.Tournament) error {
	select {
	case <-s.quit:
		return fmt.Errorf("storage: saving tournament %q: %w", t.ID, ErrClosed)
	default:
	}
	c := t.Clone()
	if err := s.update("tournament "+t.ID, func(tx *bbolt.Tx) error {
		c.ID = t.ID
		return putTournament(tx, c)
	}); err != nil {
		return err
	}
	t.ID = c.ID
	return nil
}

// Tournament implements sessions.Store.
func (s *Store) Tournament(ctx context.Context, id string) (*sessions.Tournament, error) {
	k, ok := tourID(id)
	if !ok {
		return nil, fmt.Errorf("storage: tournament %q: %w", id, sessions.ErrNotFound)
	}
	var t *sessions.Tournament
	err := s.view("tournament "+id, func(tx *bbolt.Tx) (err error) {
		v := tx.Bucket(bTours).Get(k)
		if v == nil {
			return fmt.Errorf("storage: tournament %q: %w", id, sessions.ErrNotFound)
		}
		if t, err = decodeTournament(v); err != nil {
			return fmt.Errorf("storage: tournament %s: %w", id, err)
		}
		return nil
	})
	return t, err
}

// ActiveTournaments implements sessions.Store, newest first, through the
// index of active ones. A tournament that does not decode is skipped (and
// logged, once); the others are returned with an error wrapping
// sessions.ErrDamaged.
func (s *Store) ActiveTournaments(ctx context.Context) ([]*sessions.Tournament, error) {
	var out []*sessions.Tournament
	var damaged []error
	err := s.view("active tournaments", func(tx *bbolt.Tx) error {
		tours := tx.Bucket(bTours)
		c := tx.Bucket(bTourActive).Cursor()
		for k, _ := c.Last(); k != nil; k, _ = c.Prev() {
			if len(k) != 8 {
				return damage(fmt.Errorf("bad key %q in the index of active tournaments", k))
			}
			what := fmt.Sprint("tournament ", binary.BigEndian.Uint64(k))
			v := tours.Get(k)
			if v == nil {
				return fmt.Errorf("storage: %s in the index of active tournaments: %w", what, damage(errors.New("missing")))
			}
			t, err := decodeTournament(v)
			if err != nil {
				damaged = append(damaged, s.damaged(what, fmt.Errorf("storage: %s: %w", what, err)))
				continue
			}
			out = append(out, t)
		}
		return nil
	})
	if err == nil || errors.Is(err, sessions.ErrDamaged) {
		err = errors.Join(append(damaged, err)...)
	}
	return out, err
}

// TournamentsAt implements sessions.Store: newest first, through the index
// by channel.
func (s *Store) TournamentsAt(ctx context.Context, key sessions.Key, limit int) ([]*sessions.Tournament, error) {
	prefix, err := tourChannel(key)
	if err != nil {
		return nil, err
	}
	var out []*sessions.Tournament
	err = s.view("tournaments of "+key.Platform+" channel "+key.Channel, func(tx *bbolt.Tx) error {
		tours := tx.Bucket(bTours)
		c := tx.Bucket(bTourByChan).Cursor()
		k, _ := c.Seek(append(bytes.Clone(prefix), 0xff))
		if k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix) && (limit <= 0 || len(out) < limit); k, _ = c.Prev() {
			if len(k) != len(prefix)+8 {
				return damage(fmt.Errorf("bad key %q in the index of tournaments by channel", k))
			}
			id := k[len(prefix):]
			v := tours.Get(id)
			if v == nil {
				return damage(fmt.Errorf("tournament %d in the index by channel is missing", binary.BigEndian.Uint64(id)))
			}
			t, err := decodeTournament(v)
			if err != nil {
				return fmt.Errorf("storage: tournament %d: %w", binary.BigEndian.Uint64(id), err)
			}
			out = append(out, t)
		}
		return nil
	})
	return out, err
}
