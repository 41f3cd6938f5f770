package telegram

import (
	"context"

	"github.com/boardgamebot/bot/chat"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// addPicture adds a picture drawn apart from the board (the standings,
// a rating chart, a player's card) to a parcel, as a photo named name,
// with the reply's text as its caption, or after the text when that is
// too long for a caption; a picture that cannot be drawn leaves the text
// alone.
func (b *Bot) addPicture(pc *parcel, w where, name string, draw func() ([]byte, error), htmlText string, kb *tgbotapi.InlineKeyboardMarkup) {
	caption := htmlText
	if len([]rune(caption)) > maxCaption {
		b.addText(pc, w, htmlText, nil, 0)
		caption = ""
	}
	p := w.params()
	addMarkup(p, kb)
	pc.note("sendPhoto", w, name+"|"+caption, p)
	pc.add("sendPhoto", func(ctx context.Context) error {
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

// addFigure adds a rating chart or a player's card to a parcel
// (addPicture).
func (b *Bot) addFigure(pc *parcel, w where, f *chat.Figure, htmlText string, kb *tgbotapi.InlineKeyboardMarkup) {
	b.addPicture(pc, w, f.Name, func() ([]byte, error) { return f.PNG(b.r, b.cfg.Picture) }, htmlText, kb)
}
