package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Permission is one permission the bot needs in a server: its bit and its
// name as Discord's settings show it.
type Permission struct {
	Bit  int64
	Name string
}

// Permissions lists the permissions the bot needs in every server it is
// in (the README's set-up, step 2).
func Permissions() []Permission {
	return []Permission{
		{discordgo.PermissionViewChannel, "View Channels"},
		{discordgo.PermissionSendMessages, "Send Messages"},
		{discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads"},
		{discordgo.PermissionCreatePublicThreads, "Create Public Threads"},
		{discordgo.PermissionAttachFiles, "Attach Files"},
		{discordgo.PermissionEmbedLinks, "Embed Links"},
		{discordgo.PermissionReadMessageHistory, "Read Message History"},
	}
}

// MaxScopeChecks is how many servers Inspect asks about the commands
// scope at most (one call each).
const MaxScopeChecks = 25

// Setup is what Discord says of a bot's set-up, for bot doctor.
type Setup struct {
	// User and UserID are the bot's user (GET /users/@me).
	User, UserID string
	// AppID is its application's id.
	AppID string
	// Guilds are the servers the bot is in, with what it lacks there.
	Guilds []GuildSetup
}

// GuildSetup is the bot's set-up in one server.
type GuildSetup struct {
	ID, Name string
	// Missing names the permissions of Permissions the bot lacks there
	// (from its roles; an administrator or the owner lacks none).
	Missing []string
	// Scope tells whether the application may have its slash commands
	// there (the applications.commands scope): ScopeUnchecked beyond
	// MaxScopeChecks servers.
	Scope Scope
}

// Scope is what Inspect found of the commands scope in a server.
type Scope int

// The states of the commands scope.
const (
	ScopeUnchecked Scope = iota
	ScopeGranted
	ScopeMissing
)

// ErrTokenRefused: Discord refuses the token (401).
var ErrTokenRefused = errors.New("the token is refused")

// Inspect asks Discord about the set-up of cfg.Token, through
// cfg.HTTPClient: the bot's user, its application, the servers it is in
// with its permissions there, and (for the server cfg.GuildID, or the
// first MaxScopeChecks servers) whether its slash commands may be
// registered there. It changes nothing; a refused token is an error
// wrapping ErrTokenRefused.
func Inspect(ctx context.Context, cfg Config) (Setup, error) {
	s, err := discordgo.New("Bot " + cfg.Token)
	if err != nil {
		return Setup{}, err
	}
	if cfg.HTTPClient != nil {
		s.Client = cfg.HTTPClient
	}
	with := discordgo.WithContext(ctx)
	var out Setup
	u, err := s.User("@me", with)
	if err != nil {
		return out, restErr("GET /users/@me", err)
	}
	out.User, out.UserID = u.Username, u.ID
	body, err := s.Request(http.MethodGet, discordgo.EndpointOAuth2Application("@me"), nil, with)
	if err != nil {
		return out, restErr("GET /oauth2/applications/@me", err)
	}
	var app struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(body, &app); err != nil || app.ID == "" {
		return out, fmt.Errorf("GET /oauth2/applications/@me: no application id in the answer")
	}
	out.AppID = app.ID
	after := ""
	for {
		page, err := s.UserGuilds(200, "", after, false, with)
		if err != nil {
			return out, restErr("GET /users/@me/guilds", err)
		}
		for _, g := range page {
			out.Guilds = append(out.Guilds, GuildSetup{ID: g.ID, Name: g.Name, Missing: missing(g)})
		}
		if len(page) < 200 {
			break
		}
		after = page[len(page)-1].ID
	}
	checked := 0
	for i := range out.Guilds {
		g := &out.Guilds[i]
		if cfg.GuildID != "" && g.ID != cfg.GuildID || cfg.GuildID == "" && checked == MaxScopeChecks {
			continue
		}
		checked++
		g.Scope = ScopeGranted
		if _, err := s.ApplicationCommands(out.AppID, g.ID, with); err != nil {
			var re *discordgo.RESTError
			if !errors.As(err, &re) || re.Response == nil || re.Response.StatusCode != http.StatusForbidden {
				return out, restErr("GET /applications/"+out.AppID+"/guilds/"+g.ID+"/commands", err)
			}
			g.Scope = ScopeMissing
		}
	}
	return out, nil
}

// missing names the permissions the bot lacks in g.
func missing(g *discordgo.UserGuild) []string {
	if g.Owner || g.Permissions&discordgo.PermissionAdministrator != 0 {
		return nil
	}
	var out []string
	for _, p := range Permissions() {
		if g.Permissions&p.Bit == 0 {
			out = append(out, p.Name)
		}
	}
	return out
}

// restErr says which call failed and why; a 401 wraps ErrTokenRefused.
func restErr(call string, err error) error {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		msg := re.Response.Status
		if m := re.Message; m != nil && m.Message != "" && !strings.HasPrefix(m.Message, strconv.Itoa(re.Response.StatusCode)) {
			msg += ": " + m.Message
		}
		if re.Response.StatusCode == http.StatusUnauthorized {
			return fmt.Errorf("%w: %s: %s", ErrTokenRefused, call, msg)
		}
		return fmt.Errorf("%s: %s", call, msg)
	}
	return fmt.Errorf("%s: %v", call, err)
}
