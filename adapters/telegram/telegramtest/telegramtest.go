// Package telegramtest is a fake Telegram Bot API on loopback, for the
// tests of other packages (bot doctor): it answers the calls that check a
// set-up, getMe and getWebhookInfo, and refuses every other method, so
// that a test also sees that nothing was changed.
package telegramtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Token is the token the fake accepts.
const Token = "123456:FAKE-token-for-tests"

// Username is the fake bot's username.
const Username = "fake_games_bot"

// Server is the fake Bot API. Point telegram.api_endpoint at URL.
type Server struct {
	// URL is the base URL of the API (telegram.api_endpoint).
	URL string

	mu        sync.Mutex
	webhook   string
	lastError string
	calls     []string
}

// New starts a fake Bot API with no webhook set; it stops with the test.
func New(t testing.TB) *Server {
	s := &Server{}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// SetWebhook sets the webhook getWebhookInfo reports, and Telegram's last
// error delivering to it ("" for none).
func (s *Server) SetWebhook(url, lastError string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.webhook, s.lastError = url, lastError
}

// Calls returns the methods called so far, in order.
func (s *Server) Calls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.calls...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	answer := func(status int, v any) {
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	method, ok := strings.CutPrefix(r.URL.Path, "/bot"+Token+"/")
	if !ok {
		answer(http.StatusUnauthorized, map[string]any{"ok": false, "error_code": 401, "description": "Unauthorized"})
		return
	}
	s.mu.Lock()
	s.calls = append(s.calls, method)
	webhook, lastError := s.webhook, s.lastError
	s.mu.Unlock()
	switch method {
	case "getMe":
		answer(http.StatusOK, map[string]any{"ok": true, "result": map[string]any{"id": 999, "is_bot": true, "first_name": "Games", "username": Username}})
	case "getWebhookInfo":
		info := map[string]any{"url": webhook, "has_custom_certificate": false, "pending_update_count": 0}
		if lastError != "" {
			info["last_error_date"], info["last_error_message"] = 1767225600, lastError
		}
		answer(http.StatusOK, map[string]any{"ok": true, "result": info})
	default:
		answer(http.StatusNotFound, map[string]any{"ok": false, "error_code": 404, "description": "Not Found: the fake answers getMe and getWebhookInfo only"})
	}
}
