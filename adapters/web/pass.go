package web

import (
	"context"
	"net/http"
	"time"

	"github.com/boardgamebot/bot/sessions"
)

// StreamFor is how long a page's derived stream token works: its stream
// (EventSource sends no header, so it rides in the stream's address) and
// its downloads. The page asks for another before it ends.
const StreamFor = 5 * time.Minute

// Pass is the answer to a page's request for its stream token (GET
// /g/{ref}/pass, the link's token in the header): the derived token,
// for how many seconds it works, what the link allows (play or watch),
// and the page's language for the link's user with its words (the page
// was served before its token was seen).
type Pass struct {
	Token   string            `json:"token"`
	Seconds int               `json:"seconds"`
	Mode    string            `json:"mode"`
	Lang    string            `json:"lang"`
	Words   map[string]string `json:"words"`
}

// derive returns a token of scope made from t that never outlives t (the
// earlier expiry wins), for at most life from now.
func derive(t Token, scope Scope, life time.Duration, now time.Time) Token {
	d := Token{Scope: scope, User: t.User, Key: t.Key, Created: t.Created, Tournament: t.Tournament, Gen: t.Gen,
		Expires: now.Add(life)}
	if t.Expires.Before(d.Expires) {
		d.Expires = t.Expires
	}
	return d
}

// pass answers a page its stream token: only for a link's own token
// (play or watch) sent in the header, never one from an address.
func (s *Server) pass(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get(tokenHeader) == "" {
		s.refuse(w, &failure{http.StatusUnauthorized, "WebNoToken"}, s.langOf(r, sessions.User{}, "", ""))
		return
	}
	t, _, ok := s.checked(w, r, false)
	if !ok {
		return
	}
	if t.Scope != ScopePlay && t.Scope != ScopeWatch {
		s.refuse(w, &failure{http.StatusForbidden, "WebWatchOnly"}, s.pageLang(r, t))
		return
	}
	now := s.now()
	d := derive(t, ScopeStream, StreamFor, now)
	if t.Scope == ScopeWatch {
		d.User = sessions.User{}
	}
	mode := "watch"
	if t.Scope == ScopePlay {
		mode = "play"
	}
	lang := s.langOf(r, t.User, t.Key.Platform, "")
	writeJSON(w, http.StatusOK, Pass{Token: s.signer.Sign(d), Seconds: int(d.Expires.Sub(now) / time.Second), Mode: mode,
		Lang: lang, Words: s.chat.PageWords(lang)})
}

// generation is u's link generation now on Telegram, for a Mini App's
// login (0 when the store keeps none or does not answer: the token is
// then refused if the user revoked their links).
func (s *Server) generation(ctx context.Context, u sessions.User) uint64 {
	g, _ := s.svc.LinkGeneration(ctx, telegramPlatform, u)
	return g
}
