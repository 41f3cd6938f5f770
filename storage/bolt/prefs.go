package bolt

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.etcd.io/bbolt"
)

// PrefsVersion is the version of the stored preferences records.
const PrefsVersion = 1

// prefs is the record of one user's preferences, stored as
// {"v":1,"notify":true} under platform 0 user 0.
type prefs struct {
	V int `json:"v"`
	// Notify: the user asked for turn pings by private message (true) or
	// turned them off (false); nil when they never said.
	Notify *bool `json:"notify,omitempty"`
	// Lang is the language the user chose with /lang; "" for none.
	Lang string `json:"lang,omitempty"`
}

// SetNotify records whether a user of a platform wants turn pings by
// private message. The choice is kept until it is set again.
func (s *Store) SetNotify(ctx context.Context, platform, userID string, on bool) error {
	return s.setPrefs(platform, userID, "pings", func(p *prefs) { p.Notify = &on })
}

// NotifyPrefs returns the choices of turn pings of the users of a platform
// who made one, by user id: true for on, false for off.
func (s *Store) NotifyPrefs(ctx context.Context, platform string) (map[string]bool, error) {
	out := map[string]bool{}
	err := s.eachPrefs(platform, "pings", func(user string, p prefs) {
		if p.Notify != nil {
			out[user] = *p.Notify
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SetLang records the language a user of a platform chose with /lang;
// "" forgets it. The other preferences of the user are kept.
func (s *Store) SetLang(ctx context.Context, platform, userID, lang string) error {
	return s.setPrefs(platform, userID, "language", func(p *prefs) { p.Lang = lang })
}

// Langs returns the languages the users of a platform chose with /lang,
// by user id.
func (s *Store) Langs(ctx context.Context, platform string) (map[string]string, error) {
	out := map[string]string{}
	err := s.eachPrefs(platform, "languages", func(user string, p prefs) {
		if p.Lang != "" {
			out[user] = p.Lang
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// setPrefs changes one user's preferences record with set, keeping the
// others; what names the preference in errors.
func (s *Store) setPrefs(platform, userID, what string, set func(*prefs)) error {
	k, err := userKey(platform, userID)
	if err != nil {
		return err
	}
	select {
	case <-s.quit:
		return fmt.Errorf("storage: saving the %s of %s user %s: %w", what, platform, userID, ErrClosed)
	default:
	}
	err = s.update("preferences of "+platform+" user "+userID, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bPrefs)
		p := prefs{V: PrefsVersion}
		if v := b.Get(k); v != nil {
			old, err := decodePrefs(v)
			if err != nil {
				return err
			}
			p = old
		}
		set(&p)
		v, err := json.Marshal(p)
		if err != nil {
			return err
		}
		return b.Put(k, v)
	})
	if err != nil {
		return fmt.Errorf("storage: saving the %s of %s user %s: %w", what, platform, userID, err)
	}
	return nil
}

// eachPrefs calls fn with the preferences record of every user of a
// platform (inside the read transaction); what names them in errors.
func (s *Store) eachPrefs(platform, what string, fn func(user string, p prefs)) error {
	if platform == "" || strings.ContainsRune(platform, 0) {
		return fmt.Errorf("storage: bad platform %q", platform)
	}
	prefix := []byte(platform + "\x00")
	err := s.view("preferences of "+platform, func(tx *bbolt.Tx) error {
		c := tx.Bucket(bPrefs).Cursor()
		for k, v := c.Seek(prefix); k != nil && strings.HasPrefix(string(k), string(prefix)); k, v = c.Next() {
			user := strings.TrimSuffix(string(k[len(prefix):]), "\x00")
			p, err := decodePrefs(v)
			if err != nil {
				return fmt.Errorf("preferences of user %s: %w", user, err)
			}
			fn(user, p)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: reading the %s of %s: %w", what, platform, err)
	}
	return nil
}

// userKey is platform 0 user 0, the key of a user's preferences.
func userKey(platform, userID string) ([]byte, error) {
	if platform == "" || userID == "" || strings.ContainsRune(platform+userID, 0) {
		return nil, fmt.Errorf("storage: bad user %q of platform %q", userID, platform)
	}
	return join(platform, userID), nil
}

// decodePrefs reads a preferences record (inside its transaction).
func decodePrefs(v []byte) (prefs, error) {
	var p prefs
	if err := json.Unmarshal(v, &p); err != nil {
		return prefs{}, damage(fmt.Errorf("bad preferences record: %w", err))
	}
	if p.V != PrefsVersion {
		return prefs{}, damage(fmt.Errorf("preferences record version %d, this bot reads %d", p.V, PrefsVersion))
	}
	return p, nil
}
