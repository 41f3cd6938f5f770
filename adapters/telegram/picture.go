package telegram

import (
	"context"

	"github.com/boardgamebot/bot/adapters/chat"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// sendPicture sends a picture drawn apart from the board (the standings,
// a rating chart, a player's card) as a photo named name, with the
// reply's text as its caption, or after the text when that is too long
// for a caption; a picture that cannot be drawn leaves the text alone.
func (b *Bot) sendPicture(w where, name string, draw func() ([]byte, error), htmlText string, kb *tgbotapi.InlineKeyboardMarkup) {
	caption := htmlText
	if len([]rune(caption)) > maxCaption {
		b.sendText(w, htmlText, nil, 0)
		caption = ""
	}
	b.enqueue(w.chat, true, "sendPhoto", func(ctx context.Context) error {
		p := w.params()
		addMarkup(p, kb)
		png, err := draw()
		if err != nil {
			b.log.Error("telegram: drawing a picture", "name", name, "err", err)
			if caption == "" {
				return nil
			}
			p["text"], p["parse_mode"] = caption, "HTML"
			_, err := b.c.call(ctx, "sendMessage", p, nil)
			return err
		}
		if caption != "" {
			p["caption"], p["parse_mode"] = caption, "HTML"
		}
		_, err = b.c.call(ctx, "sendPhoto", p, []tgbotapi.RequestFile{{Name: "photo", Data: tgbotapi.FileBytes{Name: name, Bytes: png}}})
		return err
	})
}

// sendFigure sends a rating chart or a player's card (sendPicture).
func (b *Bot) sendFigure(w where, f *chat.Figure, htmlText string, kb *tgbotapi.InlineKeyboardMarkup) {
	b.sendPicture(w, f.Name, func() ([]byte, error) { return f.PNG(b.r, b.cfg.Picture) }, htmlText, kb)
}
