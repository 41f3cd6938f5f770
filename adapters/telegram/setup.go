package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Setup is what Telegram says of a bot's set-up, for bot doctor.
type Setup struct {
	// Username is the bot's username (getMe).
	Username string
	// Webhook is the URL Telegram posts the updates to; "" when none is
	// set (long polling).
	Webhook string
	// LastError is Telegram's last failure to deliver an update to the
	// webhook, "" for none; LastErrorAt is when.
	LastError   string
	LastErrorAt time.Time
	// Pending is how many updates wait to be delivered.
	Pending int
}

// ErrTokenRefused: Telegram refuses the token (401), or knows no bot by
// it (404).
var ErrTokenRefused = errors.New("the token is refused")

// Inspect asks Telegram about the set-up of cfg.Token: the bot (getMe)
// and its webhook (getWebhookInfo), at cfg.APIEndpoint through
// cfg.HTTPClient. It changes nothing, tries each call once, and keeps the
// token out of its errors; a refused token is an error wrapping
// ErrTokenRefused.
func Inspect(ctx context.Context, cfg Config) (Setup, error) {
	endpoint, err := endpointFormat(cfg.APIEndpoint)
	if err != nil {
		return Setup{}, err
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	call := func(method string, v any) error {
		return inspectCall(ctx, hc, fmt.Sprintf(endpoint, cfg.Token, method), cfg.Token, method, v)
	}
	var s Setup
	var me struct {
		Username string `json:"username"`
	}
	if err := call("getMe", &me); err != nil {
		return s, err
	}
	s.Username = me.Username
	var wh struct {
		URL     string `json:"url"`
		Pending int    `json:"pending_update_count"`
		Date    int64  `json:"last_error_date"`
		Message string `json:"last_error_message"`
	}
	if err := call("getWebhookInfo", &wh); err != nil {
		return s, err
	}
	s.Webhook, s.Pending, s.LastError = wh.URL, wh.Pending, wh.Message
	if wh.Date != 0 {
		s.LastErrorAt = time.Unix(wh.Date, 0).UTC()
	}
	return s, nil
}

// inspectCall makes one Bot API call (GET url) and decodes its result
// into v.
func inspectCall(ctx context.Context, hc *http.Client, url, token, method string, v any) error {
	clean := func(s string) string { return strings.ReplaceAll(s, token, "<token>") }
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("%s: %s", method, clean(err.Error()))
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %s", method, clean(err.Error()))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("%s: %s", method, clean(err.Error()))
	}
	var ans struct {
		OK          bool            `json:"ok"`
		Code        int             `json:"error_code"`
		Description string          `json:"description"`
		Result      json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(body, &ans); err != nil {
		return fmt.Errorf("%s: the answer (HTTP %d) is not the Bot API's: is telegram.api_endpoint a Bot API server?", method, resp.StatusCode)
	}
	if !ans.OK {
		err := fmt.Errorf("%s: %d %s", method, ans.Code, clean(ans.Description))
		if ans.Code == http.StatusUnauthorized || ans.Code == http.StatusNotFound {
			return fmt.Errorf("%w: %v", ErrTokenRefused, err)
		}
		return err
	}
	if err := json.Unmarshal(ans.Result, v); err != nil {
		return fmt.Errorf("%s: %v", method, err)
	}
	return nil
}
