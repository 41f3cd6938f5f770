package web

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/boardgamebot/bot/adapters/identity"
	"github.com/boardgamebot/bot/sessions"
)

// telegramPlatform is the platform of the Mini App's users.
const telegramPlatform = identity.Telegram

// loginRequest is what the Mini App's page sends: Telegram's signed
// launch data, and the game its button named (a watch token), if any.
type loginRequest struct {
	Init string `json:"init"`
	Game string `json:"g"`
}

// miniAppLogin signs a Mini App's user in: their launch data must be
// signed by Telegram for this bot and recent (InitMaxAge); the game is
// the one the button or the direct link named (?g=, startapp=), else the
// one in the user's private chat with the bot (the menu button). The
// answer is a token of the user for that game (to play it when they play
// it), its reference, and the page's words in the user's language.
func (s *Server) miniAppLogin(w http.ResponseWriter, r *http.Request) {
	lang := s.langOf(r, sessions.User{}, "", "")
	var req loginRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody+1024)).Decode(&req); err != nil {
		s.refuse(w, &failure{http.StatusBadRequest, "WebInitForged"}, lang)
		return
	}
	d, err := ValidateInitData(req.Init, s.tgToken, s.maxAge, s.now())
	switch {
	case errors.Is(err, ErrStale):
		s.refuse(w, &failure{http.StatusUnauthorized, "WebInitStale"}, s.langOf(r, sessions.User{}, "", d.User.LanguageCode))
		return
	case err != nil:
		s.refuse(w, &failure{http.StatusUnauthorized, "WebInitForged"}, lang)
		return
	}
	u := identity.TelegramUser(d.User.ID, d.User.Username, d.User.FirstName, d.User.LastName)
	lang = s.langOf(r, u, telegramPlatform, d.User.LanguageCode)
	answer := func(status int, v map[string]any) {
		v["lang"] = lang
		v["words"] = s.chat.PageWords(lang)
		writeJSON(w, status, v)
	}
	named := req.Game
	if named == "" {
		named = d.StartParam
	}
	var key sessions.Key
	var snap *sessions.Snapshot
	// The login's token works for init_max_age at most, and never
	// outlives the token that named the game.
	until := s.now().Add(s.maxAge)
	if named != "" {
		t, err := s.signer.Parse(named, s.now())
		if err != nil || t.Key.Platform != telegramPlatform || t.Scope == ScopeTournament {
			answer(http.StatusForbidden, map[string]any{"ok": false, "error": s.say(lang, "WebBadLink")})
			return
		}
		key = t.Key
		if t.Expires.Before(until) {
			until = t.Expires
		}
		snap, err = s.current(r.Context(), t.Key, t.Created)
		if err != nil {
			answer(http.StatusGone, map[string]any{"ok": false, "error": s.say(lang, "WebGone")})
			return
		}
	} else {
		// The menu button: the game of the user's private chat with the
		// bot (its chat id is the user's id).
		key = sessions.Key{Platform: telegramPlatform, Channel: u.ID}
		var err error
		if snap, err = s.svc.Look(r.Context(), key); err != nil {
			answer(http.StatusNotFound, map[string]any{"ok": false, "error": s.say(lang, "WebNoTelegramGame")})
			return
		}
	}
	t := Token{Scope: ScopeWatch, Key: key, Created: snap.Record.Created, Expires: s.now().Add(s.links.watchFor)}
	if snap.Record.Result == nil && len(snap.Record.SeatsOf(u)) > 0 {
		t.Scope, t.User, t.Expires = ScopePlay, u, s.now().Add(s.links.playFor)
		t.Gen = s.generation(r.Context(), u)
	}
	if until.Before(t.Expires) {
		t.Expires = until
	}
	mode := "watch"
	if t.Scope == ScopePlay {
		mode = "play"
	}
	answer(http.StatusOK, map[string]any{"ok": true, "token": s.signer.Sign(t), "ref": t.Ref(), "mode": mode})
}
