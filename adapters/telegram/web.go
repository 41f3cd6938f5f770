package telegram

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"time"

	"github.com/boardgamebot/bot/chat"
)

// linkButton is an inline keyboard button that opens a link (url) or the
// Mini App (web_app), as the Bot API takes them: one of the two.
type linkButton struct {
	Text   string      `json:"text"`
	URL    string      `json:"url,omitempty"`
	WebApp *webAppInfo `json:"web_app,omitempty"`
}

// webAppInfo is the Bot API's WebAppInfo: the Mini App's https URL.
type webAppInfo struct {
	URL string `json:"url"`
}

// linkMarkup is the reply_markup of one button.
func linkMarkup(b linkButton) string {
	js, _ := json.Marshal(map[string]any{"inline_keyboard": [][]linkButton{{b}}})
	return string(js)
}

// buttonURL reports whether Telegram takes link as a button's URL: an
// https address of a host on the Internet (Telegram refuses local ones).
func buttonURL(link string) bool {
	u, err := url.Parse(link)
	if err != nil || u.Scheme != "https" || u.Hostname() == "" {
		return false
	}
	switch h := u.Hostname(); h {
	case "localhost", "127.0.0.1", "::1":
		return false
	}
	return true
}

// webCommand answers /web: the chat handler gives the game's links (with
// its checks and limits); Telegram shows them as the Bot API allows. In a
// private chat: a web_app button that opens the board as a Mini App, and
// the chat's menu button set to open the user's game there. In a group,
// where web_app buttons are refused: a button to the Mini App's direct
// link (telegram.app_name), else the user's own link sent privately when
// they started a chat with the bot, else a line saying how. The user's
// own link never shows in a group: it plays as them.
func (b *Bot) webCommand(ctx context.Context, w where, m *message, msg chat.Message) {
	r := b.h.Handle(ctx, msg)
	if r.Error || r.Web == nil {
		b.deliver(ctx, w, r, m.MessageID, nil) // a refusal, or a tournament's page (nobody's own link)
		return
	}
	words := b.words(m.From)
	open := words.T("ButtonOpenBoard")
	name := userOf(m.From).Name
	web := r.Web
	switch {
	case m.Chat.Type == "private" && web.App != "":
		b.sendMarkup(w, esc(words.T("WebTelegramPrivate")), linkMarkup(linkButton{Text: open, WebApp: &webAppInfo{URL: web.App}}), m.MessageID)
		b.setMenuButton(m.Chat.ID, words.T("WebMenuButton"), web.AppMenu)
	case m.Chat.Type == "private":
		link := web.Play
		if link == "" {
			link = web.Watch
		}
		b.sendLink(w, r.Text(), open, link, m.MessageID)
	case b.cfg.AppName != "" && web.Start != "":
		link := "https://t.me/" + b.self + "/" + url.PathEscape(b.cfg.AppName) + "?startapp=" + url.QueryEscape(web.Start)
		b.sendMarkup(w, esc(words.T("WebTelegramApp", "Name", name)), linkMarkup(linkButton{Text: open, URL: link}), m.MessageID)
	case web.Play == "":
		// Not a player: the watch link is nobody's own.
		b.sendLink(w, r.Text(), open, web.Watch, m.MessageID)
	default:
		b.mu.Lock()
		started := b.started[m.From.ID]
		b.mu.Unlock()
		if !started {
			link := "https://t.me/" + b.self + "?start=web"
			b.sendText(w, esc(words.T("WebTelegramStartFirst", "Name", name, "Link", link)), nil, m.MessageID, lookup)
			return
		}
		place := m.Chat.Title
		if place == "" {
			place = words.T("ThisChat")
		}
		text := words.T("WebTelegramPrivateLink", "Place", place, "Hours", int(web.PlayFor/time.Hour), "URL", web.Play)
		b.sendLink(where{chat: m.From.ID}, text, open, web.Play, 0)
		b.sendText(w, esc(words.T("WebTelegramSent", "Name", name)), nil, m.MessageID, lookup)
	}
}

// sendLink sends text with a button to link when Telegram takes the link
// as a button's (https), the text alone otherwise (the link is in it).
func (b *Bot) sendLink(w where, text, label, link string, replyTo int) {
	markup := ""
	if buttonURL(link) {
		markup = linkMarkup(linkButton{Text: label, URL: link})
	}
	b.sendMarkup(w, esc(text), markup, replyTo)
}

// sendMarkup sends a short HTML text with a reply_markup of its own ("":
// none), in the chat's queue as the answer to a command that changed
// nothing.
func (b *Bot) sendMarkup(w where, htmlText, markup string, replyTo int) {
	p := w.params()
	p["text"] = htmlText
	p["parse_mode"] = "HTML"
	p["disable_web_page_preview"] = "true"
	if markup != "" {
		p["reply_markup"] = markup
	}
	pc := &parcel{rank: lookup}
	pc.note("sendMessage", w, htmlText, p)
	addReply(p, replyTo)
	pc.add("sendMessage", func(ctx context.Context) error {
		_, err := b.c.call(ctx, "sendMessage", p, nil)
		return err
	})
	b.out.push(w.chat, pc)
}

// setMenuButton sets the menu button of a private chat to open the Mini
// App at link (setChatMenuButton, a MenuButtonWebApp). It puts no message
// into the chat: it goes by the chat's edit lane.
func (b *Bot) setMenuButton(chatID int64, text, link string) {
	if link == "" {
		return
	}
	button, _ := json.Marshal(map[string]any{"type": "web_app", "text": text, "web_app": webAppInfo{URL: link}})
	p := map[string]string{"chat_id": strconv.FormatInt(chatID, 10), "menu_button": string(button)}
	b.edit(chatID, "setChatMenuButton", func(ctx context.Context) error {
		_, err := b.c.call(ctx, "setChatMenuButton", p, nil)
		return err
	})
}
