package discord_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/discord"
	"github.com/boardgamebot/bot/adapters/discord/discordtest"
	"github.com/bwmarrin/discordgo"
)

// TestInspect: Inspect reads the bot, its application and its servers:
// in each, the permissions of the README it lacks and whether its slash
// commands may be there; a refused token is ErrTokenRefused; it only
// reads.
func TestInspect(t *testing.T) {
	ctx := context.Background()
	noFiles := discordtest.Everyone &^ (discordgo.PermissionAttachFiles | discordgo.PermissionCreatePublicThreads)
	f := discordtest.New(t,
		discordtest.Guild{ID: "800", Name: "Chess club", Permissions: discordtest.Everyone},
		discordtest.Guild{ID: "801", Name: "Draughts", Permissions: noFiles},
		discordtest.Guild{ID: "802", Name: "Admins", Permissions: discordgo.PermissionAdministrator, NoCommands: true},
	)
	s, err := discord.Inspect(ctx, discord.Config{Token: discordtest.Token, HTTPClient: f.Client()})
	if err != nil {
		t.Fatal(err)
	}
	if s.User != discordtest.BotName || s.UserID != discordtest.BotID || s.AppID != discordtest.AppID || len(s.Guilds) != 3 {
		t.Fatalf("setup: %+v", s)
	}
	for i, want := range []struct {
		missing []string
		scope   discord.Scope
	}{
		{nil, discord.ScopeGranted},
		{[]string{"Create Public Threads", "Attach Files"}, discord.ScopeGranted},
		{nil, discord.ScopeMissing},
	} {
		if g := s.Guilds[i]; !slices.Equal(g.Missing, want.missing) || g.Scope != want.scope {
			t.Errorf("server %s: missing %v, scope %v; want %v, %v", g.Name, g.Missing, g.Scope, want.missing, want.scope)
		}
	}
	for _, c := range f.Calls() {
		if !strings.HasPrefix(c, "GET ") {
			t.Errorf("Inspect called %s", c)
		}
	}

	// With guild_id, only that server's commands are asked about.
	s, err = discord.Inspect(ctx, discord.Config{Token: discordtest.Token, HTTPClient: f.Client(), GuildID: "801"})
	if err != nil || s.Guilds[0].Scope != discord.ScopeUnchecked || s.Guilds[1].Scope != discord.ScopeGranted {
		t.Fatalf("guild_id: %+v %v", s, err)
	}

	_, err = discord.Inspect(ctx, discord.Config{Token: "wrong", HTTPClient: f.Client()})
	if !errors.Is(err, discord.ErrTokenRefused) {
		t.Errorf("refused token: %v", err)
	}
}
