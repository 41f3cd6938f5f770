package etcdstore_test

import (
	"context"
	"maps"
	"testing"

	"github.com/boardgamebot/bot/sessions"
)

// TestPrefsAndRoutes: what one process records of its users and
// channels, another reads.
func TestPrefsAndRoutes(t *testing.T) {
	ctx := context.Background()
	a, b := open(t), open(t)
	if err := a.SetNotify(ctx, "telegram", "7", true); err != nil {
		t.Fatal(err)
	}
	if err := b.SetLang(ctx, "telegram", "7", "es"); err != nil {
		t.Fatal(err)
	}
	if err := a.SetLang(ctx, "telegram", "8", "de"); err != nil {
		t.Fatal(err)
	}
	if got, err := b.NotifyPrefs(ctx, "telegram"); err != nil || !maps.Equal(got, map[string]bool{"7": true}) {
		t.Fatalf("NotifyPrefs: %v, %v", got, err)
	}
	if got, err := a.Langs(ctx, "telegram"); err != nil || !maps.Equal(got, map[string]string{"7": "es", "8": "de"}) {
		t.Fatalf("Langs: %v, %v", got, err)
	}
	if err := a.SetNotify(ctx, "", "7", true); err == nil {
		t.Fatal("a user without a platform was saved")
	}
	k1 := sessions.Key{Platform: "discord", Channel: "5", Thread: "6"}
	k2 := sessions.Key{Platform: "discord", Channel: "5", Thread: "9"}
	if err := a.SaveRoute(ctx, "discord", "5", k1); err != nil {
		t.Fatal(err)
	}
	if err := b.SaveRoute(ctx, "discord", "5", k2); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteRoute(ctx, "discord", "5", k1); err != nil {
		t.Fatal(err)
	}
	if got, err := a.Routes(ctx, "discord"); err != nil || !maps.Equal(got, map[string]sessions.Key{"5": k2}) {
		t.Fatalf("Routes after deleting a replaced route: %v, %v", got, err)
	}
	if err := b.DeleteRoute(ctx, "discord", "5", k2); err != nil {
		t.Fatal(err)
	}
	if got, err := a.Routes(ctx, "discord"); err != nil || len(got) != 0 {
		t.Fatalf("Routes after deleting: %v, %v", got, err)
	}
}
