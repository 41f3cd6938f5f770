package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/bbolt"
)

// standingRecord is a Standing as stored, with its version.
type standingRecord struct {
	V int `json:"v"`
	sessions.Standing
}

func ratingKey(platform, user, game, period string) []byte {
	return []byte(platform + "\x00" + user + "\x00" + game + "\x00" + period)
}

func ladderPrefix(platform, game, period string) []byte {
	return []byte(platform + "\x00" + game + "\x00" + period + "\x00")
}

// inverted orders ratings from the highest down as bytes.
func inverted(rating int) []byte {
	r := max(min(int64(rating), math.MaxInt32), math.MinInt32+1)
	return binary.BigEndian.AppendUint32(nil, uint32(int64(math.MaxInt32)-r))
}

func getStanding(tx *bbolt.Tx, platform string, u sessions.User, game, period string) (sessions.Standing, bool, error) {
	v := tx.Bucket(bRatings).Get(ratingKey(platform, u.ID, game, period))
	if v == nil {
		return sessions.NewStanding(platform, u, game, period), false, nil
	}
	var sr standingRecord
	if err := json.Unmarshal(v, &sr); err != nil {
		return sessions.Standing{}, false, fmt.Errorf("storage: rating of %s in %s %s: %w", u.ID, game, period, damage(err))
	}
	return sr.Standing, true, nil
}

// putStanding writes a standing and moves it in the platform's ladder and
// in every community ladder the player is on (of its game and period),
// with their counts; join, when not empty and the player is not on it
// yet, adds them to that community's ladder (a rated game played there).
func putStanding(tx *bbolt.Tx, old sessions.Standing, had bool, st sessions.Standing, join string) error {
	v, err := json.Marshal(standingRecord{V: 1, Standing: st})
	if err != nil {
		return err
	}
	if err := tx.Bucket(bRatings).Put(ratingKey(st.Platform, st.User.ID, st.Game, st.Period), v); err != nil {
		return err
	}
	if err := moveRow(tx.Bucket(bLadder), tx.Bucket(bCounts), ladderPrefix(st.Platform, st.Game, st.Period), old, had, st, v); err != nil {
		return err
	}
	return moveCommunityRows(tx, old, st, v, join)
}

// moveRow moves a player's row in a ladder (its index in ladder, the
// players per rating in counts, under prefix) from old, when they had
// one, to st, whose stored value is v.
func moveRow(ladder, counts *bbolt.Bucket, prefix []byte, old sessions.Standing, had bool, st sessions.Standing, v []byte) error {
	if had {
		if err := ladder.Delete(append(append(bytes.Clone(prefix), inverted(old.Rating)...), old.User.ID...)); err != nil {
			return err
		}
		if err := addCount(counts, append(bytes.Clone(prefix), inverted(old.Rating)...), -1); err != nil {
			return err
		}
	}
	if err := ladder.Put(append(append(bytes.Clone(prefix), inverted(st.Rating)...), st.User.ID...), v); err != nil {
		return err
	}
	return addCount(counts, append(bytes.Clone(prefix), inverted(st.Rating)...), 1)
}

func addCount(b *bbolt.Bucket, k []byte, d int64) error {
	n := int64(0)
	if v := b.Get(k); len(v) == 8 {
		n = int64(binary.BigEndian.Uint64(v))
	}
	n += d
	if n <= 0 {
		return b.Delete(k)
	}
	return b.Put(k, binary.BigEndian.AppendUint64(nil, uint64(n)))
}

// rate applies a rating request in tx.
func rate(tx *bbolt.Tx, r *sessions.RateRequest) ([]sessions.RatingChange, error) {
	var cur [2][2]sessions.Standing
	var had [2][2]bool
	periods := []string{sessions.AllTime, r.Month}
	for seat, u := range r.Players {
		for p, period := range periods {
			st, ok, err := getStanding(tx, r.Platform, u, r.Game, period)
			if err != nil {
				return nil, err
			}
			cur[seat][p], had[seat][p] = st, ok
		}
	}
	next, changes := sessions.ApplyRating(r, cur)
	join := ""
	if r.Joins() {
		join = r.Community
	}
	for seat := range 2 {
		if !r.Rated && r.Penalty[seat] == 0 {
			continue // an unrated game leaves the winner of an abandoned game as they were
		}
		for p := range 2 {
			if err := putStanding(tx, cur[seat][p], had[seat][p], next[seat][p], join); err != nil {
				return nil, err
			}
		}
	}
	return changes, nil
}

// putNames remembers the users of a finished game by name, for /rating @name.
func putNames(tx *bbolt.Tx, platform string, seats []sessions.User) error {
	b := tx.Bucket(bNames)
	for _, u := range seats {
		if u.ID == "" || u.Computer || u.Name == "" {
			continue
		}
		v, err := json.Marshal(u)
		if err != nil {
			return err
		}
		if err := b.Put([]byte(platform+"\x00"+strings.ToLower(strings.TrimPrefix(u.Name, "@"))), v); err != nil {
			return err
		}
	}
	return nil
}

// seeRequest records a request id, or fails with sessions.ErrDuplicate
// when it was recorded before.
func seeRequest(tx *bbolt.Tx, platform, id string, at time.Time) error {
	k := []byte(platform + "\x00" + id)
	seen := tx.Bucket(bSeen)
	if seen.Get(k) != nil {
		return fmt.Errorf("storage: request %s: %w", id, sessions.ErrDuplicate)
	}
	when := binary.BigEndian.AppendUint64(nil, uint64(at.UnixNano()))
	if err := seen.Put(k, when); err != nil {
		return err
	}
	return tx.Bucket(bSeenAt).Put(append(when, k...), nil)
}

// Seen implements sessions.Store.
func (s *Store) Seen(ctx context.Context, platform, id string) (bool, error) {
	found := false
	err := s.view("request ids", func(tx *bbolt.Tx) error {
		found = tx.Bucket(bSeen).Get([]byte(platform+"\x00"+id)) != nil
		return nil
	})
	return found, err
}

// Forget implements sessions.Store: it drops the request ids recorded
// before t, oldest first, through the index by time.
func (s *Store) Forget(ctx context.Context, before time.Time) error {
	limit := binary.BigEndian.AppendUint64(nil, uint64(before.UnixNano()))
	return s.update("request ids", func(tx *bbolt.Tx) error {
		seen := tx.Bucket(bSeen)
		return deleteFrom(tx.Bucket(bSeenAt), nil, func(k []byte) (bool, error) {
			if len(k) < 8 || bytes.Compare(k[:8], limit) >= 0 {
				return false, nil
			}
			return true, seen.Delete(k[8:])
		})
	})
}

// Standings implements sessions.Store.
func (s *Store) Standings(ctx context.Context, platform, userID, game string) ([]sessions.Standing, error) {
	prefix := []byte(platform + "\x00" + userID + "\x00")
	if game != "" {
		prefix = append(prefix, game+"\x00"...)
	}
	var out []sessions.Standing
	err := s.view("ratings of "+platform+" user "+userID, func(tx *bbolt.Tx) error {
		c := tx.Bucket(bRatings).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var sr standingRecord
			if err := json.Unmarshal(v, &sr); err != nil {
				return fmt.Errorf("storage: rating %q: %w", k, damage(err))
			}
			out = append(out, sr.Standing)
		}
		return nil
	})
	return out, err
}

// Top implements sessions.Store: the head of the ladder is the first keys
// of its index; a player's place adds up the counts of the ratings above
// theirs, one key per distinct rating, not one per player. A community's
// ladder has the same form in buckets of its own (communities.go).
func (s *Store) Top(ctx context.Context, q sessions.TopQuery) (sessions.Ladder, error) {
	var l sessions.Ladder
	ladder, counts, prefix := bLadder, bCounts, ladderPrefix(q.Platform, q.Game, q.Period)
	if q.Community != "" {
		ladder, counts, prefix = bCLadder, bCCounts, communityPrefix(q.Platform, q.Community, q.Game, q.Period)
	}
	err := s.view("ladder of "+q.Platform+" "+q.Community+" "+q.Game+" "+q.Period, func(tx *bbolt.Tx) error {
		c := tx.Bucket(ladder).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && (q.Limit <= 0 || len(l.Rows) < q.Limit); k, v = c.Next() {
			var sr standingRecord
			if err := json.Unmarshal(v, &sr); err != nil {
				return fmt.Errorf("storage: ladder %q: %w", k, damage(err))
			}
			l.Rows = append(l.Rows, sr.Standing)
		}
		var mine []byte
		if q.User != "" && (q.Community == "" || tx.Bucket(bMember).Get(memberKey(q.Platform, q.User, q.Game, q.Period, q.Community)) != nil) {
			st, ok, err := getStanding(tx, q.Platform, sessions.User{ID: q.User}, q.Game, q.Period)
			if err != nil {
				return err
			}
			if ok {
				l.Me = &st
				mine = inverted(st.Rating)
			}
		}
		l.Place = 1
		cc := tx.Bucket(counts).Cursor()
		for k, v := cc.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = cc.Next() {
			n := int(binary.BigEndian.Uint64(v))
			l.Players += n
			if mine != nil && bytes.Compare(k[len(prefix):], mine) < 0 {
				l.Place += n
			}
		}
		if l.Me == nil {
			l.Place = 0
		}
		return nil
	})
	return l, err
}

// FindUser implements sessions.Store.
func (s *Store) FindUser(ctx context.Context, platform, name string) (sessions.User, error) {
	var u sessions.User
	err := s.view("user name "+name, func(tx *bbolt.Tx) error {
		v := tx.Bucket(bNames).Get([]byte(platform + "\x00" + strings.ToLower(strings.TrimPrefix(name, "@"))))
		if v == nil {
			return fmt.Errorf("storage: user %q: %w", name, sessions.ErrNotFound)
		}
		if err := json.Unmarshal(v, &u); err != nil {
			return fmt.Errorf("storage: user %q: %w", name, damage(err))
		}
		return nil
	})
	return u, err
}

// Backup writes a consistent copy of the whole database to w, while the
// bot runs (a read transaction: commits go on meanwhile), and returns the
// bytes written.
func (s *Store) Backup(w io.Writer) (int64, error) {
	return s.BackupSized(w, nil)
}

// BackupSized is Backup that first tells size the number of bytes it will
// write (to send them over a connection with their length first).
func (s *Store) BackupSized(w io.Writer, size func(n int64) error) (int64, error) {
	var n int64
	err := s.view("the whole file (backup)", func(tx *bbolt.Tx) error {
		if size != nil {
			if err := size(tx.Size()); err != nil {
				return err
			}
		}
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// BackupFile writes a consistent copy of the database to path: first to a
// temporary file beside it, synced, then renamed, so that path is never a
// half-written database. It refuses to overwrite the live database.
func (s *Store) BackupFile(path string) (int64, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return 0, err
	}
	if live, err := filepath.Abs(s.db.Path()); err == nil && live == abs {
		return 0, fmt.Errorf("storage: the backup %s would overwrite the live database", path)
	}
	f, err := os.CreateTemp(filepath.Dir(abs), ".backup-*")
	if err != nil {
		return 0, fmt.Errorf("storage: backup: %w", err)
	}
	tmp := f.Name()
	n, err := s.Backup(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, abs)
	}
	if err != nil {
		os.Remove(tmp)
		return 0, fmt.Errorf("storage: backup to %s: %w", path, err)
	}
	return n, nil
}
