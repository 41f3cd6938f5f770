package etcdstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/boardgamebot/bot/sessions"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// The users' preferences (p/<platform 0 user>) and the Discord channels'
// routes (o/<platform 0 channel>), the same records as the bbolt store's.

type prefs struct {
	V      int    `json:"v"`
	Notify *bool  `json:"notify,omitempty"`
	Lang   string `json:"lang,omitempty"`
}

type route struct {
	V   int          `json:"v"`
	Key sessions.Key `json:"key"`
}

func (s *Store) prefsKey(platform, userID string) (string, error) {
	if platform == "" || userID == "" || strings.ContainsRune(platform+userID, 0) {
		return "", fmt.Errorf("etcdstore: bad user %q of platform %q", userID, platform)
	}
	return s.prefix + "p/" + platform + "\x00" + userID, nil
}

func (s *Store) routeKey(platform, channel string) (string, error) {
	if platform == "" || channel == "" || strings.ContainsRune(platform+channel, 0) {
		return "", fmt.Errorf("etcdstore: bad channel %q of platform %q", channel, platform)
	}
	return s.prefix + "o/" + platform + "\x00" + channel, nil
}

// updatePrefs changes a user's preferences in a transaction that
// compares their revision (and runs again when another process won).
func (s *Store) updatePrefs(ctx context.Context, platform, userID string, f func(p *prefs)) error {
	k, err := s.prefsKey(platform, userID)
	if err != nil {
		return err
	}
	for range 16 {
		resp, err := s.cli.Get(ctx, k)
		if err != nil {
			return fmt.Errorf("etcdstore: preferences of %s user %s: %w", platform, userID, err)
		}
		p, rev := prefs{V: 1}, int64(0)
		if len(resp.Kvs) > 0 {
			if err := json.Unmarshal(resp.Kvs[0].Value, &p); err != nil || p.V != 1 {
				return s.damage("preferences of "+platform+" user "+userID, fmt.Errorf("version %d: %v", p.V, err))
			}
			rev = resp.Kvs[0].ModRevision
		}
		f(&p)
		v, err := json.Marshal(p)
		if err != nil {
			return err
		}
		t, err := s.cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(k), "=", rev)).Then(clientv3.OpPut(k, string(v))).Commit()
		if err != nil {
			return fmt.Errorf("etcdstore: preferences of %s user %s: %w", platform, userID, err)
		}
		if t.Succeeded {
			return nil
		}
	}
	return fmt.Errorf("etcdstore: preferences of %s user %s: %w", platform, userID, sessions.ErrConflict)
}

// SetNotify records whether a user wants turn pings by private message.
func (s *Store) SetNotify(ctx context.Context, platform, userID string, on bool) error {
	return s.updatePrefs(ctx, platform, userID, func(p *prefs) { p.Notify = &on })
}

// SetLang records a user's language.
func (s *Store) SetLang(ctx context.Context, platform, userID, lang string) error {
	return s.updatePrefs(ctx, platform, userID, func(p *prefs) { p.Lang = lang })
}

func (s *Store) allPrefs(ctx context.Context, platform string) (map[string]prefs, error) {
	if platform == "" || strings.ContainsRune(platform, 0) {
		return nil, fmt.Errorf("etcdstore: bad platform %q", platform)
	}
	p := s.prefix + "p/" + platform + "\x00"
	resp, err := s.cli.Get(ctx, p, clientv3.WithPrefix())
	if err != nil {
		return nil, fmt.Errorf("etcdstore: preferences of %s: %w", platform, err)
	}
	out := map[string]prefs{}
	for _, kv := range resp.Kvs {
		var pr prefs
		if err := json.Unmarshal(kv.Value, &pr); err != nil || pr.V != 1 {
			return nil, s.damage("preferences "+string(kv.Key), fmt.Errorf("version %d: %v", pr.V, err))
		}
		out[string(kv.Key[len(p):])] = pr
	}
	return out, nil
}

// NotifyPrefs returns the users of a platform who chose about pings.
func (s *Store) NotifyPrefs(ctx context.Context, platform string) (map[string]bool, error) {
	all, err := s.allPrefs(ctx, platform)
	out := map[string]bool{}
	for u, p := range all {
		if p.Notify != nil {
			out[u] = *p.Notify
		}
	}
	return out, err
}

// Langs returns the languages the users of a platform chose.
func (s *Store) Langs(ctx context.Context, platform string) (map[string]string, error) {
	all, err := s.allPrefs(ctx, platform)
	out := map[string]string{}
	for u, p := range all {
		if p.Lang != "" {
			out[u] = p.Lang
		}
	}
	return out, err
}

// SaveRoute records that the commands typed in a channel go to the
// session of key.
func (s *Store) SaveRoute(ctx context.Context, platform, channel string, key sessions.Key) error {
	k, err := s.routeKey(platform, channel)
	if err != nil {
		return err
	}
	v, err := json.Marshal(route{V: 1, Key: key})
	if err != nil {
		return err
	}
	if _, err := s.cli.Put(ctx, k, string(v)); err != nil {
		return fmt.Errorf("etcdstore: saving the route of %s channel %s: %w", platform, channel, err)
	}
	return nil
}

// DeleteRoute forgets the route of a channel if it still goes to key.
func (s *Store) DeleteRoute(ctx context.Context, platform, channel string, key sessions.Key) error {
	k, err := s.routeKey(platform, channel)
	if err != nil {
		return err
	}
	v, err := json.Marshal(route{V: 1, Key: key})
	if err != nil {
		return err
	}
	if _, err := s.cli.Txn(ctx).If(clientv3.Compare(clientv3.Value(k), "=", string(v))).Then(clientv3.OpDelete(k)).Commit(); err != nil {
		return fmt.Errorf("etcdstore: deleting the route of %s channel %s: %w", platform, channel, err)
	}
	return nil
}

// Routes returns the routes of the channels of a platform; a damaged
// record is left out.
func (s *Store) Routes(ctx context.Context, platform string) (map[string]sessions.Key, error) {
	if platform == "" || strings.ContainsRune(platform, 0) {
		return nil, fmt.Errorf("etcdstore: bad platform %q", platform)
	}
	p := s.prefix + "o/" + platform + "\x00"
	resp, err := s.cli.Get(ctx, p, clientv3.WithPrefix())
	if err != nil {
		return nil, fmt.Errorf("etcdstore: reading the routes of %s: %w", platform, err)
	}
	out := map[string]sessions.Key{}
	for _, kv := range resp.Kvs {
		var r route
		if json.Unmarshal(kv.Value, &r) == nil && r.V == 1 {
			out[string(kv.Key[len(p):])] = r.Key
		}
	}
	return out, nil
}
