// Package discordtest is a fake Discord REST API on loopback, for the
// tests of other packages (bot doctor): it answers the calls that check a
// set-up (the bot's user and application, the servers it is in with its
// permissions, their slash commands) and refuses every other call, so
// that a test also sees that nothing was changed.
package discordtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Token is the token the fake accepts.
const Token = "FAKE.discord.token-for-tests"

// The fake's bot user and application.
const (
	BotID   = "900"
	BotName = "fake-games"
	AppID   = "901"
	// Everyone is every permission but Administrator (which grants all).
	Everyone = (int64(1)<<40 - 1) &^ 8
)

// Guild is a server the fake bot is in.
type Guild struct {
	ID, Name string
	// Permissions are the bot's there (Discord's bits).
	Permissions int64
	// NoCommands: the application was invited without the
	// applications.commands scope (its commands there are refused: 403).
	NoCommands bool
}

// Server is the fake Discord.
type Server struct {
	srv *httptest.Server

	mu     sync.Mutex
	guilds []Guild
	calls  []string
}

// New starts a fake Discord where the bot is in guilds; it stops with the
// test.
func New(t testing.TB, guilds ...Guild) *Server {
	s := &Server{guilds: guilds}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// Client is an HTTP client whose every request goes to the fake (Discord's
// URLs are fixed in the library).
func (s *Server) Client() *http.Client {
	u, _ := url.Parse(s.srv.URL)
	return &http.Client{Transport: rewrite{host: u.Host}}
}

// Calls returns the requests so far ("GET /users/@me"), in order.
func (s *Server) Calls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.calls...)
}

// rewrite sends every request to host, over plain HTTP.
type rewrite struct{ host string }

func (r rewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host, req.Host = "http", r.host, ""
	return http.DefaultTransport.RoundTrip(req)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/api/v9")
	s.mu.Lock()
	s.calls = append(s.calls, r.Method+" "+path)
	guilds := append([]Guild(nil), s.guilds...)
	s.mu.Unlock()
	answer := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	if r.Header.Get("Authorization") != "Bot "+Token {
		answer(http.StatusUnauthorized, map[string]any{"message": "401: Unauthorized", "code": 0})
		return
	}
	p := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case r.Method != http.MethodGet:
	case path == "/users/@me":
		answer(http.StatusOK, map[string]any{"id": BotID, "username": BotName, "bot": true})
		return
	case path == "/oauth2/applications/@me":
		answer(http.StatusOK, map[string]any{"id": AppID, "name": BotName})
		return
	case path == "/users/@me/guilds":
		after := r.URL.Query().Get("after")
		var list []map[string]any
		for _, g := range guilds {
			if after == "" || numeric(g.ID) > numeric(after) {
				list = append(list, map[string]any{"id": g.ID, "name": g.Name, "owner": false, "permissions": strconv.FormatInt(g.Permissions, 10)})
			}
		}
		answer(http.StatusOK, list)
		return
	case len(p) == 5 && p[0] == "applications" && p[1] == AppID && p[2] == "guilds" && p[4] == "commands":
		for _, g := range guilds {
			if g.ID == p[3] && !g.NoCommands {
				answer(http.StatusOK, []any{})
				return
			}
		}
		answer(http.StatusForbidden, map[string]any{"message": "Missing Access", "code": 50001})
		return
	}
	answer(http.StatusNotFound, map[string]any{"message": "the fake answers the set-up's reads only", "code": 0})
}

func numeric(id string) int64 {
	n, _ := strconv.ParseInt(id, 10, 64)
	return n
}
