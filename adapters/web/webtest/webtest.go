// Package webtest helps the tests of the web board: a headless Chromium
// to load the pages in (chromedp), and Telegram's signature of a Mini
// App's launch data, as Telegram makes it, for a fake Telegram.
package webtest

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// RequireBrowser is the environment variable that makes a missing
// browser a test failure instead of a skip (CI sets it).
const RequireBrowser = "BOT_REQUIRE_BROWSER"

// browsers are the names Chromium goes by.
var browsers = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Browser starts one headless Chromium for the test, with an empty
// profile and nothing that reaches out to the network on its own, and
// returns the context its tabs are opened from (chromedp.NewContext);
// it stops with the test. Without Chromium the test is skipped with a
// line saying how to install it, or fails when RequireBrowser is set.
func Browser(t testing.TB) context.Context {
	t.Helper()
	path := ""
	for _, name := range browsers {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv(RequireBrowser) != "" {
			t.Fatalf("no headless Chromium (%s is set): apt-get install -y chromium", RequireBrowser)
		}
		t.Skip("no headless Chromium for the browser tests: apt-get install -y chromium")
	}
	dir, err := os.MkdirTemp("", "webtest-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(path),
		chromedp.UserDataDir(dir),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1000, 900),
	)
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	// Start the browser now, in a first tab, so that a browser that
	// cannot start fails here, once.
	first, _ := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		_ = chromedp.Cancel(first) // closes the browser and waits for it
		cancel()
		os.RemoveAll(dir)
	})
	if err := chromedp.Run(first); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return first
}

// TelegramUser is the user in a Mini App's launch data.
type TelegramUser struct {
	ID           int64  `json:"id"`
	FirstName    string `json:"first_name,omitempty"`
	LastName     string `json:"last_name,omitempty"`
	Username     string `json:"username,omitempty"`
	LanguageCode string `json:"language_code,omitempty"`
}

// InitData is the launch data Telegram gives a Mini App opened by u at
// signed (with the direct link's start parameter, when not empty),
// signed as the Bot API documents it for the bot of botToken.
func InitData(botToken string, u TelegramUser, startParam string, signed time.Time) string {
	if u.FirstName == "" {
		u.FirstName = "Test"
	}
	user, _ := json.Marshal(u)
	q := url.Values{}
	q.Set("user", string(user))
	q.Set("auth_date", strconv.FormatInt(signed.Unix(), 10))
	q.Set("query_id", "AAF"+strconv.FormatInt(u.ID, 10))
	if startParam != "" {
		q.Set("start_param", startParam)
	}
	var pairs []string
	for k, v := range q {
		pairs = append(pairs, k+"="+v[0])
	}
	slices.Sort(pairs)
	key := hmac.New(sha256.New, []byte("WebAppData"))
	key.Write([]byte(botToken))
	m := hmac.New(sha256.New, key.Sum(nil))
	m.Write([]byte(strings.Join(pairs, "\n")))
	q.Set("hash", hex.EncodeToString(m.Sum(nil)))
	return q.Encode()
}
