package web_test

import (
	"bytes"
	"html"
	"image/png"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestPageHeaders: a board page forbids anything from another host
// (Content-Security-Policy default-src 'self'), sends no referrer (its
// address holds the link's token), and unfurls with the board's picture
// (og:image, an absolute URL that answers a PNG, on a page asked with
// its token: an old link's ?t=); the Mini App's entry
// alone may load Telegram's script and be framed by Telegram's web
// client.
func TestPageHeaders(t *testing.T) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	link := f.link(here, alice)
	u, _ := url.Parse(link)
	u.RawQuery, u.Fragment = "t="+strings.TrimPrefix(u.Fragment, "t="), ""
	res, err := http.Get(f.srv.URL + u.RequestURI())
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body bytes.Buffer
	body.ReadFrom(res.Body)
	h := res.Header
	if csp := h.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'self'; script-src 'self';") ||
		!strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "telegram") {
		t.Errorf("the page's CSP %q", csp)
	}
	if h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Cache-Control") != "no-store" {
		t.Errorf("the page's headers %v", h)
	}
	m := regexp.MustCompile(`<meta property="og:image" content="([^"]+)">`).FindStringSubmatch(body.String())
	if m == nil {
		t.Fatalf("no og:image in\n%s", body.String())
	}
	img := html.UnescapeString(m[1])
	if !strings.HasPrefix(img, f.links.Base()+"/g/") || strings.Contains(img, u.Query().Get("t")) {
		t.Fatalf("og:image %q: want the bot's absolute URL, with a watch token (not the player's)", img)
	}
	iu, _ := url.Parse(img)
	code, pic := f.get(iu.RequestURI())
	if code != http.StatusOK {
		t.Fatalf("og:image answered %d", code)
	}
	if _, err := png.Decode(bytes.NewReader(pic)); err != nil {
		t.Fatalf("og:image is not a PNG: %v", err)
	}
	if !strings.Contains(body.String(), `<meta property="og:title" content="Spanish draughts">`) {
		t.Errorf("no og:title naming the game")
	}

	res, err = http.Get(f.srv.URL + "/tg")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self' https://telegram.org;") ||
		!strings.Contains(csp, "frame-ancestors https://web.telegram.org") || !strings.HasPrefix(csp, "default-src 'self';") {
		t.Errorf("the Mini App's CSP %q", csp)
	}
}

// TestRefusedPages: a link that does not check out opens a page that says
// why, in words, with the right status, never a stack trace or a board.
func TestRefusedPages(t *testing.T) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	path, tok := parts(t, f.link(here, alice))
	en := f.chat.Catalogues().In("en")
	for _, c := range []struct {
		name, query string
		later       bool
		status      int
		line        string
	}{
		{"a changed token", "?t=" + tok[:len(tok)-2] + "AA", false, http.StatusUnauthorized, en.T("WebBadLink")},
		{"an expired token", "?t=" + tok, true, http.StatusUnauthorized, en.T("WebExpired")},
	} {
		if c.later {
			f.advance(48 * 3600e9)
		}
		code, body := f.get(path + c.query)
		if c.later {
			f.advance(-48 * 3600e9)
		}
		page := html.UnescapeString(string(body))
		if code != c.status || !strings.Contains(page, `data-error="`+c.line+`"`) || !strings.Contains(page, `<p id="status" role="status">`+c.line+`</p>`) {
			t.Errorf("%s: %d\n%s", c.name, code, page)
		}
	}
	// A page without a token in its address is the board's empty page
	// (a link's token is in its fragment, which the script sends): its
	// pass, asked without a token, is refused.
	if code, body := f.get(path); code != http.StatusOK || strings.Contains(string(body), "data-error=\"") {
		t.Errorf("a page without a token in its address: %d\n%s", code, body)
	}
	if code, _ := f.get(path + "/pass"); code != http.StatusUnauthorized {
		t.Errorf("a pass without a token: %d", code)
	}
	other := "/g/AAAAAAAAAAAA?t=" + tok
	if code, body := f.get(other); code != http.StatusForbidden || !strings.Contains(html.UnescapeString(string(body)), en.T("WebOtherGame")) {
		t.Errorf("a token on another game's page: %d", code)
	}
}
