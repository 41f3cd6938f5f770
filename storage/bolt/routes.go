package bolt

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/bbolt"
)

// RoutesVersion is the version of the stored route records.
const RoutesVersion = 1

// bRoutes holds where the commands typed in a channel go when its session
// lives under another key: platform 0 channel 0 -> route.
var bRoutes = []byte("routes")

// route is the record of one channel's route, stored as
// {"v":1,"key":{"platform":"discord","channel":"7","thread":"9"}}.
type route struct {
	V   int          `json:"v"`
	Key sessions.Key `json:"key"`
}

// SaveRoute records that the commands typed in a channel of a platform go
// to the session of key (a Discord game whose thread could not be opened,
// played in the channel under its challenge's key). It replaces the
// channel's earlier route.
func (s *Store) SaveRoute(ctx context.Context, platform, channel string, key sessions.Key) error {
	k, err := routeKey(platform, channel)
	if err != nil {
		return err
	}
	v, err := json.Marshal(route{V: RoutesVersion, Key: key})
	if err != nil {
		return err
	}
	select {
	case <-s.quit:
		return fmt.Errorf("storage: saving the route of %s channel %s: %w", platform, channel, ErrClosed)
	default:
	}
	if err := s.update("route of "+platform+" channel "+channel, func(tx *bbolt.Tx) error { return tx.Bucket(bRoutes).Put(k, v) }); err != nil {
		return fmt.Errorf("storage: saving the route of %s channel %s: %w", platform, channel, err)
	}
	return nil
}

// DeleteRoute forgets the route of a channel if it still goes to key.
func (s *Store) DeleteRoute(ctx context.Context, platform, channel string, key sessions.Key) error {
	k, err := routeKey(platform, channel)
	if err != nil {
		return err
	}
	select {
	case <-s.quit:
		return fmt.Errorf("storage: deleting the route of %s channel %s: %w", platform, channel, ErrClosed)
	default:
	}
	err = s.update("route of "+platform+" channel "+channel, func(tx *bbolt.Tx) error {
		b := tx.Bucket(bRoutes)
		if r, err := decodeRoute(b.Get(k)); err != nil || r.Key != key {
			return nil // none, routed elsewhere since, or a record Routes skips
		}
		return b.Delete(k)
	})
	if err != nil {
		return fmt.Errorf("storage: deleting the route of %s channel %s: %w", platform, channel, err)
	}
	return nil
}

// Routes returns the routes of the channels of a platform, by channel. A
// damaged record is left out: the channel's commands go to its own key.
func (s *Store) Routes(ctx context.Context, platform string) (map[string]sessions.Key, error) {
	if platform == "" || strings.ContainsRune(platform, 0) {
		return nil, fmt.Errorf("storage: bad platform %q", platform)
	}
	prefix := []byte(platform + "\x00")
	out := map[string]sessions.Key{}
	err := s.view("routes of "+platform, func(tx *bbolt.Tx) error {
		c := tx.Bucket(bRoutes).Cursor()
		for k, v := c.Seek(prefix); k != nil && strings.HasPrefix(string(k), string(prefix)); k, v = c.Next() {
			if r, err := decodeRoute(v); err == nil {
				out[strings.TrimSuffix(string(k[len(prefix):]), "\x00")] = r.Key
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: reading the routes of %s: %w", platform, err)
	}
	return out, nil
}

// routeKey is platform 0 channel 0, the key of a channel's route.
func routeKey(platform, channel string) ([]byte, error) {
	if platform == "" || channel == "" || strings.ContainsRune(platform+channel, 0) {
		return nil, fmt.Errorf("storage: bad channel %q of platform %q", channel, platform)
	}
	return join(platform, channel), nil
}

// decodeRoute reads a route record (inside its transaction).
func decodeRoute(v []byte) (route, error) {
	var r route
	if err := json.Unmarshal(v, &r); err != nil {
		return route{}, damage(fmt.Errorf("bad route record: %w", err))
	}
	if r.V != RoutesVersion {
		return route{}, damage(fmt.Errorf("route record version %d, this bot reads %d", r.V, RoutesVersion))
	}
	return r, nil
}
