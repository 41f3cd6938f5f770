package telegram

import (
	"context"
	"encoding/json"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// A menu is one command list published by setMyCommands: for a scope of
// chats (Telegram's BotCommandScope type) and, when lang is set, for the
// users of that language_code.
type menu struct {
	scope    string // "default", "all_private_chats", "all_group_chats"
	lang     string
	commands []tgbotapi.BotCommand
}

// privateOnly reports whether a command belongs in the menu of private
// chats only: /notify, whose pings come by private message.
func privateOnly(command string) bool { return command == "notify" }

// menus are the command menus: private chats get every command, groups
// the game's commands without /notify, and the default scope (any other
// chat) the private list; each in the default language, and again for
// each other language of the catalogues (language_code), descriptions
// translated.
func (b *Bot) menus() []menu {
	var out []menu
	w := b.h.Catalogues()
	for _, lang := range append([]string{""}, w.Langs()...) {
		if lang == w.Default() {
			continue // the menus without language_code
		}
		var all, group []tgbotapi.BotCommand
		for _, c := range b.h.CommandsIn(lang) {
			desc := c.Label
			if len(desc) < 3 {
				desc = "/" + c.Command
			}
			if r := []rune(desc); len(r) > 256 {
				desc = string(r[:256])
			}
			bc := tgbotapi.BotCommand{Command: c.Command, Description: desc}
			all = append(all, bc)
			if !privateOnly(c.Command) {
				group = append(group, bc)
			}
		}
		out = append(out,
			menu{scope: "default", lang: lang, commands: all},
			menu{scope: "all_private_chats", lang: lang, commands: all},
			menu{scope: "all_group_chats", lang: lang, commands: group})
	}
	return out
}

// publishCommands publishes the command menus (setMyCommands), each
// tried until it is taken or refused; a refusal is logged and the bot
// goes on without that menu.
func (b *Bot) publishCommands(ctx context.Context) {
	for _, m := range b.menus() {
		cmds, err := json.Marshal(m.commands)
		if err != nil {
			b.log.Warn("telegram: could not publish a command menu", "scope", m.scope, "err", err)
			continue
		}
		scope, _ := json.Marshal(map[string]string{"type": m.scope})
		p := tgbotapi.Params{"commands": string(cmds), "scope": string(scope)}
		if m.lang != "" {
			p["language_code"] = m.lang
		}
		if _, err := b.c.call(ctx, "setMyCommands", p, nil); err != nil && ctx.Err() == nil {
			b.log.Warn("telegram: could not publish a command menu", "scope", m.scope, "err", err)
		}
	}
}
