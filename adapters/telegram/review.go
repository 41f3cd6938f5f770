package telegram

import (
	"strings"

	"github.com/boardgamebot/bot/chat"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// addReview adds a game's review (/review) to a parcel: the graph as a
// photo with the summary (the reply's first Figure.Summary lines) as its
// caption and a button to the game's web page, then the list of mistakes
// as text.
func (b *Bot) addReview(pc *parcel, w where, r chat.Reply, kb *tgbotapi.InlineKeyboardMarkup) {
	n := min(max(r.Figure.Summary, 0), len(r.Lines))
	if n == 0 {
		n = len(r.Lines)
	}
	if r.Web != nil && buttonURL(r.Web.Watch) {
		link := tgbotapi.NewInlineKeyboardButtonURL(b.h.Catalogues().In(r.Lang).T("ButtonOpenBoard"), r.Web.Watch)
		if kb == nil {
			kb = &tgbotapi.InlineKeyboardMarkup{}
		}
		kb.InlineKeyboard = append(kb.InlineKeyboard, []tgbotapi.InlineKeyboardButton{link})
	}
	b.addFigure(pc, w, r.Figure, esc(strings.Join(r.Lines[:n], "\n")), kb)
	if rest := r.Lines[n:]; len(rest) > 0 {
		b.addText(pc, w, esc(strings.Join(rest, "\n")), nil, 0)
	}
}
