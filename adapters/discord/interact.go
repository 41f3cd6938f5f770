package discord

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/internal/textsplit"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/bwmarrin/discordgo"
)

// maxContent is the longest message Discord takes, in characters.
const maxContent = 2000

// interaction serves one interaction.
func (b *Bot) interaction(i *discordgo.Interaction) {
	ctx := b.context()
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("discord: panic serving an interaction", "id", i.ID, "panic", fmt.Sprint(p))
		}
	}()
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		b.slash(ctx, i)
	case discordgo.InteractionMessageComponent:
		b.component(ctx, i)
	case discordgo.InteractionApplicationCommandAutocomplete:
		b.autocomplete(ctx, i)
	}
}

// manager reports whether the member behind an interaction manages the
// server (Manage Server, or Administrator): they may start and cancel any
// tournament there.
func manager(i *discordgo.Interaction) bool {
	return i.Member != nil && i.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) != 0
}

// slash serves a slash command: defer at once, run the command, then edit
// the deferred answer (or, for a refusal, replace it by an ephemeral one).
func (b *Bot) slash(ctx context.Context, i *discordgo.Interaction) {
	d := i.ApplicationCommandData()
	if b.refuseClosed(ctx, i, b.threadKey(i.ChannelID)) {
		return
	}
	eph := private[d.Name]
	if t, ok := b.where.kind(i.ChannelID); ok && isForum(t) {
		eph = true // nothing is posted in a forum itself, only in its posts
	}
	var flags discordgo.MessageFlags
	if eph {
		flags = discordgo.MessageFlagsEphemeral
	}
	if d.Name == "web" {
		// The answer holds the user's own link: Discord is not to fetch
		// it for a preview.
		flags |= discordgo.MessageFlagsSuppressEmbeds
	}
	if err := b.c.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: flags}}); err != nil {
		b.log.Warn("discord: deferring a command", "command", d.Name, "err", err)
		return
	}
	text, mentions := commandText(d, b.selfID())
	key, thread := b.channelKey(i.ChannelID)
	game, busy := sessions.Key{}, false
	if d.Name == "play" && !thread {
		game, busy = b.playedHere(ctx, i.ChannelID)
	}
	switch {
	case busy:
		// A game is played in this channel (no thread could be opened for
		// it): the new /play goes to it, and sessions refuses it with the
		// reason, rather than open a challenge that would take its place.
		key = game
	case d.Name == "play" && !thread && canThread(i.AppPermissions):
		// The challenge is keyed by its message: the game's thread, opened
		// on that message, will have the message's id.
		if msg, err := b.c.InteractionResponse(i); err == nil && msg.ID != "" {
			key = sessions.Key{Platform: Platform, Channel: i.ChannelID, Thread: msg.ID}
		} else {
			b.log.Warn("discord: reading the deferred answer; the game stays in the channel", "err", err)
		}
	case !thread && d.Name != "play" && d.Name != "tournament":
		// (A tournament belongs to the channel itself, not to a game
		// played in it.)
		key = b.commandKey(ctx, i.ChannelID)
	}
	if !b.h.ReadOnly(d.Name) {
		b.enter(key)
		defer b.leave(key)
	}
	m := chat.Message{Key: key, User: user(i), Text: text, Mentions: mentions, ID: i.ID, Lang: string(i.Locale), Manager: manager(i), Community: community(i)}
	reply := b.handle(ctx, m)
	if !reply.Error && d.Name == "play" && key.Thread != "" && key.Thread != i.ChannelID {
		b.route(ctx, i.ChannelID, key)
	}
	if !reply.Error && d.Name == "tournament" && !thread && reply.Tour != nil && reply.Tour.Kind == sessions.TourOpened &&
		isForum(b.channelType(ctx, key.Channel)) {
		// Opened in a forum itself, where nothing is posted: the
		// tournament gets a post of its own.
		reply = b.tournamentPost(ctx, key, reply)
	}
	b.deliver(ctx, i, key, d.Name, reply, answerSlash, eph)
}

// community is the community of an interaction (chat.Message.Community):
// its server. The session key names the channel, not the server, so every
// message from an interaction carries it; the bot's commands are offered
// in servers only.
func community(i *discordgo.Interaction) string { return i.GuildID }

// answer says how an interaction was deferred, hence where its reply goes.
type answer int

const (
	answerSlash     answer = iota // deferred with a message to edit
	answerComponent               // deferred update of the message with the component
)

// deliver sends the reply to a command.
func (b *Bot) deliver(ctx context.Context, i *discordgo.Interaction, key sessions.Key, cmd string, reply chat.Reply, how answer, eph bool) {
	if reply.Duplicate || reply.Dropped {
		// Applied already, by an earlier delivery, or dropped by the
		// user's rate limit: say nothing more.
		if how == answerSlash {
			if err := b.c.InteractionResponseDelete(i); err != nil {
				b.log.Warn("discord: deleting a deferred answer", "err", err)
			}
		}
		return
	}
	if reply.Error {
		switch {
		case how == answerSlash && eph:
			b.editOriginal(i, outgoing{content: reply.Text()})
		case how == answerSlash:
			if err := b.c.InteractionResponseDelete(i); err != nil {
				b.log.Warn("discord: deleting a deferred answer", "err", err)
			}
			b.sendFollowup(i, outgoing{content: reply.Text()}, true)
		default:
			b.sendFollowup(i, outgoing{content: reply.Text()}, true)
		}
		return
	}
	snap := reply.Session // the reply's values: no second call of the service
	words := b.h.Catalogues().In(reply.Lang)
	out, err := b.outgoing(key, cmd, reply, snap)
	if err != nil {
		b.log.Error("discord: drawing the board", key.LogAttr(), "err", err)
	}
	// A game that starts from a challenge in a text channel moves to a
	// thread opened on the challenge message.
	if reply.Picture != nil && (cmd == "accept" || cmd == "play") && key.Thread != "" && key.Thread != i.ChannelID &&
		snap != nil && snap.Phase() == sessions.PhasePlaying {
		if _, known, _ := b.where.lookup(key.Thread); !known {
			if b.openThread(i, key, cmd, snap, reply, out, how) {
				return
			}
			out.content += "\n" + words.T("DiscordNoThread")
			b.route(ctx, key.Channel, key)
		}
	}
	if cmd == "moves" && snap != nil && snap.Turn() >= 0 && snap.Player(snap.Turn()).Is(user(i)) && len(out.components) == 0 {
		// The player to move gets the move menus with the list.
		out.components = b.pickerMessage(words, key, snap, "").components
	}
	switch {
	case how == answerSlash:
		b.sendOriginal(i, out, eph)
	case (cmd == "accept" || cmd == "decline" || cmd == "cancel") && reply.Picture == nil:
		// An answer to a challenge or a draw offer: the message with the
		// buttons says what happened.
		if out.components == nil {
			out.components = []discordgo.MessageComponent{}
		}
		b.editOriginal(i, out)
	default:
		if cmd == "accept" || cmd == "decline" {
			b.editOriginal(i, outgoing{components: []discordgo.MessageComponent{}})
		}
		b.sendFollowup(i, out, false)
	}
}

// openThread opens the game's thread on the challenge message and posts
// the board there; it reports whether it could.
func (b *Bot) openThread(i *discordgo.Interaction, key sessions.Key, cmd string, snap *sessions.Snapshot, reply chat.Reply, out outgoing, how answer) bool {
	th, err := b.c.MessageThreadStartComplex(key.Channel, key.Thread, &discordgo.ThreadStart{
		Name: threadName(snap), AutoArchiveDuration: 10080, Type: discordgo.ChannelTypeGuildPublicThread})
	if err != nil {
		b.log.Warn("discord: opening a thread for a game", "channel", key.Channel, "err", err)
		return false
	}
	b.where.learn(th.ID, discordgo.ChannelTypeGuildPublicThread, key.Channel)
	b.unroute(b.context(), key.Channel, key)
	// The challenge message (the answer to /play, or the message whose
	// Accept was pressed) says where the game went; an /accept typed in
	// the channel answers so, and the challenge loses its buttons.
	b.editOriginal(i, outgoing{content: firstLine(reply) + " " + b.h.Catalogues().In(reply.Lang).T("DiscordPlayOnIn", "Thread", "<#"+th.ID+">"), components: []discordgo.MessageComponent{}})
	onChallenge := (how == answerSlash && cmd == "play") || (how == answerComponent && i.Message != nil && i.Message.ID == key.Thread)
	if !onChallenge {
		if _, err := b.c.ChannelMessageEditComplex(&discordgo.MessageEdit{Channel: key.Channel, ID: key.Thread,
			Components: &[]discordgo.MessageComponent{}}); err != nil {
			b.log.Warn("discord: removing the buttons of a challenge", "err", err)
		}
	}
	if _, err := b.c.ChannelMessageSendComplex(th.ID, out.send()); err != nil {
		b.log.Error("discord: posting the board in a game's thread", "thread", th.ID, "err", err)
	}
	return true
}

func firstLine(r chat.Reply) string {
	if len(r.Lines) == 0 {
		return ""
	}
	return r.Lines[0]
}

// threadName names a game's thread: "alice vs bob · Spanish draughts".
func threadName(s *sessions.Snapshot) string {
	var names []string
	for _, u := range s.Record.Seats {
		names = append(names, u.Name)
	}
	return clip(strings.Join(names, " vs ")+" · "+s.Game.Name(), 100)
}

// ---- components ----

// Custom ids of the bot's components: "<kind>|<channel>|<thread>|<more>".
const (
	idCommand = "c" // a command of the language: more is its text
	idResign  = "r" // Resign: asks to confirm
	idYes     = "ry"
	idNo      = "rn"
	idMoves   = "m" // Moves: the piece menu
	idPiece   = "p" // a piece chosen: more is the position's version
	idTarget  = "t" // a target chosen: more is "version|from"
)

func customID(kind string, key sessions.Key, more ...string) string {
	return strings.Join(append([]string{kind, key.Channel, key.Thread}, more...), "|")
}

func parseCustomID(id string) (kind string, key sessions.Key, more []string, ok bool) {
	f := strings.Split(id, "|")
	if len(f) < 3 {
		return "", sessions.Key{}, nil, false
	}
	return f[0], sessions.Key{Platform: Platform, Channel: f[1], Thread: f[2]}, f[3:], true
}

// component serves a button or a select menu.
func (b *Bot) component(ctx context.Context, i *discordgo.Interaction) {
	d := i.MessageComponentData()
	kind, key, more, ok := parseCustomID(d.CustomID)
	if !ok || (i.ChannelID != key.Channel && i.ChannelID != key.Thread) {
		b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, outgoing{content: b.h.Catalogues().In(b.h.LangFor(ctx, Platform, user(i), string(i.Locale))).T("DiscordNotHere")}, true)
		return
	}
	if b.refuseClosed(ctx, i, key) {
		return
	}
	u := user(i)
	words := b.h.Catalogues().In(b.h.LangFor(ctx, Platform, u, string(i.Locale)))
	if kind == idYes || kind == idTarget || kind == idCommand && len(more) == 1 && !b.h.ReadOnly(commandName(more[0])) {
		b.enter(key) // a press that may change the game
		defer b.leave(key)
	}
	switch kind {
	case idCommand:
		if len(more) != 1 {
			return
		}
		b.deferUpdate(i)
		text := more[0]
		reply := b.handle(ctx, chat.Message{Key: key, User: u, Text: text, ID: i.ID, Lang: string(i.Locale), Community: community(i)})
		b.deliver(ctx, i, key, commandName(text), reply, answerComponent, false)
	case idResign:
		snap, err := b.svc.Look(ctx, key)
		if err != nil || snap.Phase() != sessions.PhasePlaying || len(snap.Record.SeatsOf(u)) == 0 {
			reply := b.handle(ctx, chat.Message{Key: key, User: u, Text: "/board", Lang: string(i.Locale), Community: community(i)})
			if b.limited(i, reply) {
				return
			}
			text := words.T("OnlyPlayerResigns")
			if err != nil || snap.Phase() != sessions.PhasePlaying {
				text = firstLine(reply)
			}
			b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, outgoing{content: text}, true)
			return
		}
		b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, outgoing{
			content: words.T("DiscordResignConfirm", "Game", words.GameName(snap.Game.ID(), snap.Game.Name())),
			components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: words.T("ButtonYesResign"), Style: discordgo.DangerButton, CustomID: customID(idYes, key)},
				discordgo.Button{Label: words.T("ButtonNoPlayOn"), Style: discordgo.SecondaryButton, CustomID: customID(idNo, key)},
			}}}}, true)
	case idNo:
		b.respond(i, discordgo.InteractionResponseUpdateMessage, outgoing{content: words.T("DiscordPlayOn"), components: []discordgo.MessageComponent{}}, true)
	case idYes:
		b.deferUpdate(i)
		reply := b.handle(ctx, chat.Message{Key: key, User: u, Text: "/resign", ID: i.ID, Lang: string(i.Locale), Community: community(i)})
		if reply.Dropped {
			return
		}
		if reply.Error {
			b.editOriginal(i, outgoing{content: reply.Text(), components: []discordgo.MessageComponent{}})
			return
		}
		b.editOriginal(i, outgoing{content: words.T("DiscordResigned"), components: []discordgo.MessageComponent{}})
		b.deliver(ctx, i, key, "resign", reply, answerComponent, false)
	case idMoves:
		b.movesMenu(ctx, i, words, key, u)
	case idPiece, idTarget:
		b.pick(ctx, i, words, key, u, kind, more, d.Values)
	}
}

// limited answers a component, not yet acknowledged, whose command the
// user's rate limit refused: the notice, only to them, or (dropped)
// nothing; it reports whether the reply was the rate limit's.
func (b *Bot) limited(i *discordgo.Interaction, r chat.Reply) bool {
	switch {
	case r.Dropped:
		b.deferUpdate(i)
	case r.Limited:
		b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, outgoing{content: r.Text()}, true)
	}
	return r.Limited
}

// commandName is the command of a command text: "/accept" -> "accept".
func commandName(text string) string {
	f := strings.Fields(text)
	if len(f) == 0 {
		return ""
	}
	return strings.ToLower(strings.TrimPrefix(f[0], "/"))
}

// movesMenu answers Moves: for the player to move, a menu of the pieces
// that can move; for anyone else, the list of legal moves.
func (b *Bot) movesMenu(ctx context.Context, i *discordgo.Interaction, words chat.Speaker, key sessions.Key, u sessions.User) {
	snap, err := b.svc.Look(ctx, key)
	if err != nil || snap.Turn() < 0 || !snap.Player(snap.Turn()).Is(u) {
		reply := b.handle(ctx, chat.Message{Key: key, User: u, Text: "/moves", Lang: string(i.Locale), Community: community(i)})
		if b.limited(i, reply) {
			return
		}
		text := reply.Text()
		if err == nil && snap.Turn() >= 0 && !snap.Player(snap.Turn()).Is(u) && len(snap.Record.SeatsOf(u)) > 0 {
			text = words.T("DiscordNotYourTurn", "Name", snap.Player(snap.Turn()).Name) + "\n" + text
		}
		b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, outgoing{content: text}, true)
		return
	}
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, b.pickerMessage(words, key, snap, ""), true)
}

// pickerMessage is the two-step move menu: the pieces, and, once a piece
// is chosen (from), its targets.
func (b *Bot) pickerMessage(words chat.Speaker, key sessions.Key, snap *sessions.Snapshot, from string) outgoing {
	version := strconv.Itoa(len(snap.Record.Actions))
	pieces := chat.Picker(snap.State)
	var pieceOpts []discordgo.SelectMenuOption
	var chosen *chat.PickerPiece
	for k := range pieces {
		p := &pieces[k]
		sq := p.From.String()
		desc := words.T("DiscordPieceMoves", "Count", len(p.Targets))
		pieceOpts = append(pieceOpts, discordgo.SelectMenuOption{Label: sq, Value: sq, Description: desc, Default: sq == from})
		if sq == from {
			chosen = p
		}
	}
	var rows []discordgo.MessageComponent
	for k, opts := range chunks(pieceOpts, 25) {
		if k == 2 {
			break // at most 50 pieces; the rows left are for the targets
		}
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			CustomID: customID(idPiece, key, version, strconv.Itoa(k)), Placeholder: words.T("ChoosePieceMenu"), Options: opts}}})
	}
	content := words.T("DiscordPickPiece")
	if chosen != nil {
		var targetOpts []discordgo.SelectMenuOption
		for k, t := range chosen.Targets {
			o := discordgo.SelectMenuOption{Label: clip(t.Label, 100), Value: strconv.Itoa(k)}
			if t.Label != t.Move {
				o.Description = clip(t.Move, 100)
			}
			targetOpts = append(targetOpts, o)
		}
		for k, opts := range chunks(targetOpts, 25) {
			if len(rows) == 5 {
				break
			}
			rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
				CustomID: customID(idTarget, key, version, from, strconv.Itoa(k)), Placeholder: words.T("DiscordMoveTo", "Square", from), Options: opts}}})
		}
		content = words.T("DiscordPickTarget", "Square", from)
	}
	if len(pieces) == 0 {
		content = words.T("DiscordNoPiece")
	}
	return outgoing{content: content, components: rows}
}

func chunks[T any](s []T, n int) [][]T {
	var out [][]T
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	if len(s) > 0 {
		out = append(out, s)
	}
	return out
}

// pick serves the move menu: a piece chosen shows its targets; a target
// chosen plays the move, unless the position changed since the menu.
func (b *Bot) pick(ctx context.Context, i *discordgo.Interaction, words chat.Speaker, key sessions.Key, u sessions.User, kind string, more, values []string) {
	stale := func() {
		b.respond(i, discordgo.InteractionResponseUpdateMessage, outgoing{content: words.T("DiscordStaleMenu"),
			components: []discordgo.MessageComponent{}}, true)
	}
	snap, err := b.svc.Look(ctx, key)
	if err != nil || len(more) == 0 || len(values) != 1 || snap.State == nil || strconv.Itoa(len(snap.Record.Actions)) != more[0] {
		stale()
		return
	}
	if kind == idPiece {
		b.respond(i, discordgo.InteractionResponseUpdateMessage, b.pickerMessage(words, key, snap, values[0]), true)
		return
	}
	if len(more) < 2 {
		stale()
		return
	}
	from := more[1]
	k, err := strconv.Atoi(values[0])
	var move string
	for _, p := range chat.Picker(snap.State) {
		if p.From.String() == from && err == nil && k >= 0 && k < len(p.Targets) {
			move = p.Targets[k].Move
		}
	}
	if move == "" {
		stale()
		return
	}
	b.deferUpdate(i)
	reply := b.handle(ctx, chat.Message{Key: key, User: u, Text: "/move " + move, ID: i.ID, Lang: string(i.Locale), Community: community(i)})
	if reply.Dropped {
		return
	}
	if reply.Error {
		b.editOriginal(i, outgoing{content: reply.Text(), components: []discordgo.MessageComponent{}})
		return
	}
	b.editOriginal(i, outgoing{content: words.T("DiscordYouPlayed", "Move", move), components: []discordgo.MessageComponent{}})
	b.deliver(ctx, i, key, "move", reply, answerComponent, false)
}

// ---- autocomplete ----

// completeHelp offers the commands whose names start with what was typed
// for /help's command (at most 25; what was typed itself when none does:
// /help then says there is no such command).
func (b *Bot) completeHelp(i *discordgo.Interaction, typed string) {
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, n := range slashNames {
		if strings.HasPrefix(n, strings.TrimPrefix(typed, "/")) && len(choices) < 25 {
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: n, Value: n})
		}
	}
	if len(choices) == 0 {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: clip(typed, 100), Value: clip(typed, 100)})
	}
	if err := b.c.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices}}); err != nil {
		b.log.Warn("discord: answering an autocomplete", "err", err)
	}
}

// autocomplete offers the legal moves (or huffable squares) that start
// with what was typed, at most 25.
func (b *Bot) autocomplete(ctx context.Context, i *discordgo.Interaction) {
	d := i.ApplicationCommandData()
	if d.Name == "tournament" {
		b.completeOptions(i, d)
		return
	}
	var typed string
	for _, o := range d.Options {
		if o.Focused {
			typed, _ = o.Value.(string)
		}
	}
	typed = strings.ToLower(strings.Join(strings.Fields(typed), ""))
	if d.Name == "help" {
		b.completeHelp(i, typed)
		return
	}
	key := b.commandKey(ctx, i.ChannelID)
	var all []string
	if snap, err := b.svc.Look(ctx, key); err == nil && snap.State != nil && snap.Turn() >= 0 {
		switch d.Name {
		case "move":
			for _, m := range snap.State.Moves() {
				all = append(all, m.Text)
			}
		case "huff":
			if hf, ok := snap.State.(rules.Huffer); ok {
				for _, sq := range hf.Huffable() {
					all = append(all, sq.String())
				}
			}
		}
	}
	var choices []*discordgo.ApplicationCommandOptionChoice
	seen := map[string]bool{}
	for _, t := range all {
		if len(choices) == 25 {
			break
		}
		if seen[t] || !strings.HasPrefix(strings.ToLower(t), typed) || len(t) > 100 {
			continue
		}
		seen[t] = true
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: t, Value: t})
	}
	if len(choices) == 0 {
		// Discord wants at least one choice: offer what was typed, so that
		// sending it explains why it is not a legal move.
		words := b.h.Catalogues().In(b.h.LangFor(ctx, Platform, user(i), string(i.Locale)))
		name := words.T("DiscordNoMoveStarts", "Typed", typed)
		if len(all) == 0 {
			name = words.T("DiscordNoMovesHere")
		}
		v := typed
		if v == "" {
			v = "-"
		}
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: clip(name, 100), Value: clip(v, 100)})
	}
	if err := b.c.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices}}); err != nil {
		b.log.Warn("discord: answering an autocomplete", "err", err)
	}
}

// completeOptions offers the game options of /tournament new: what was
// typed, its last word completed to each option of the chosen game (every
// game's, before one is chosen) that it starts, with each allowed value.
func (b *Bot) completeOptions(i *discordgo.Interaction, d discordgo.ApplicationCommandInteractionData) {
	var typed, game string
	if len(d.Options) > 0 {
		for _, o := range d.Options[0].Options {
			switch {
			case o.Focused:
				typed, _ = o.Value.(string)
			case o.Name == "game":
				game, _ = o.Value.(string)
			}
		}
	}
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, c := range optionCompletions(b.games(), game, typed) {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: c, Value: c})
	}
	if err := b.c.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices}}); err != nil {
		b.log.Warn("discord: answering an autocomplete", "err", err)
	}
}

// optionCompletions completes the last word of typed, game options
// ("size=10 fly" -> "size=10 flying=yes", "size=10 flying=no"): the
// options of game (of every game when it is not one of list), except
// players (a tournament plays two-player games) and those typed already;
// at most 25, none longer than Discord takes. When nothing completes,
// what was typed, so that sending it explains what is wrong.
func optionCompletions(list []games.Info, game, typed string) []string {
	fields := strings.Fields(strings.ToLower(typed))
	last := ""
	if len(fields) > 0 && !strings.HasSuffix(typed, " ") {
		last, fields = fields[len(fields)-1], fields[:len(fields)-1]
	}
	head := strings.Join(fields, " ")
	if head != "" {
		head += " "
	}
	used := map[string]bool{"players": true}
	for _, f := range fields {
		k, _, _ := strings.Cut(f, "=")
		used[k] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, g := range list {
		if game != "" && g.ID != game && slices.ContainsFunc(list, func(g games.Info) bool { return g.ID == game }) {
			continue
		}
		for _, o := range g.Options {
			for _, v := range o.Values {
				c := head + o.Key + "=" + v
				if used[o.Key] || seen[c] || !strings.HasPrefix(o.Key+"="+v, last) || len(c) > 100 || len(out) == 25 {
					continue
				}
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	if len(out) == 0 && strings.TrimSpace(typed) != "" {
		out = append(out, clip(strings.Join(strings.Fields(typed), " "), 100))
	}
	return out
}

// ---- sending ----

// outgoing is a message to send: text, the board picture and other
// files, components, and the users it may mention.
type outgoing struct {
	content    string
	picture    []byte
	attach     []attachment                 // more files: a replay, an export
	embeds     []*discordgo.MessageEmbed    // a review's summary around its graph
	components []discordgo.MessageComponent // nil: leave as they are; empty: remove
	users      []string
}

// attachment is a file sent with a message.
type attachment struct {
	name, mime string
	data       []byte
}

func (o outgoing) files() []*discordgo.File {
	var out []*discordgo.File
	if o.picture != nil {
		out = append(out, &discordgo.File{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(o.picture)})
	}
	for _, a := range o.attach {
		out = append(out, &discordgo.File{Name: a.name, ContentType: a.mime, Reader: bytes.NewReader(a.data)})
	}
	return out
}

// empty reports whether there is nothing to send.
func (o outgoing) empty() bool {
	return o.content == "" && o.picture == nil && len(o.attach) == 0 && len(o.components) == 0 && len(o.embeds) == 0
}

func (o outgoing) mentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: o.users}
}

// parts splits the content in pieces Discord takes: the first goes with
// the picture and components, the rest follow.
func (o outgoing) parts() (string, []string) {
	all := split(o.content, maxContent)
	if strings.Contains(o.content, fence) {
		all = fenced(split(o.content, maxContent-2*len(fence+"\n")))
	}
	switch len(all) {
	case 0:
		return "", nil
	case 1:
		return all[0], nil
	}
	return all[0], all[1:]
}

// fence opens and closes a code block.
const fence = "```"

// fenced closes a code block that a piece leaves open, and opens it again
// in the next piece, so that a table cut in two stays in code blocks.
func fenced(parts []string) []string {
	open := false
	for i, p := range parts {
		if open {
			p = fence + "\n" + p
		}
		if strings.Count(p, fence)%2 == 1 {
			p += "\n" + fence
			open = true
		} else {
			open = false
		}
		parts[i] = p
	}
	return parts
}

// split cuts s into pieces of at most max characters (Unicode code points,
// what Discord counts): textsplit.Split, at line ends when it can; no
// empty pieces.
func split(s string, max int) []string { return textsplit.Split(s, max, textsplit.Runes) }

func (o outgoing) send() *discordgo.MessageSend {
	first, _ := o.parts()
	return &discordgo.MessageSend{Content: first, Files: o.files(), Components: o.components, AllowedMentions: o.mentions(), Embeds: o.embeds}
}

// respond answers an interaction at once (no deferral).
func (b *Bot) respond(i *discordgo.Interaction, t discordgo.InteractionResponseType, o outgoing, eph bool) {
	first, _ := o.parts()
	data := &discordgo.InteractionResponseData{Content: first, Components: o.components, AllowedMentions: o.mentions(), Files: o.files(), Embeds: o.embeds}
	if eph && t == discordgo.InteractionResponseChannelMessageWithSource {
		data.Flags = discordgo.MessageFlagsEphemeral // an update keeps the message's own flags
	}
	if err := b.c.InteractionRespond(i, &discordgo.InteractionResponse{Type: t, Data: data}); err != nil {
		b.log.Warn("discord: answering an interaction", "err", err)
	}
}

// deferUpdate acknowledges a component: its message may be edited later.
func (b *Bot) deferUpdate(i *discordgo.Interaction) {
	if err := b.c.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}); err != nil {
		b.log.Warn("discord: deferring a component", "err", err)
	}
}

// editOriginal edits the deferred answer, or the message of a component.
func (b *Bot) editOriginal(i *discordgo.Interaction, o outgoing) {
	e := &discordgo.WebhookEdit{Files: o.files(), AllowedMentions: o.mentions()}
	if o.embeds != nil {
		e.Embeds = &o.embeds
	}
	if o.content != "" {
		first, _ := o.parts()
		e.Content = &first
	}
	if o.components != nil {
		e.Components = &o.components
	}
	if _, err := b.c.InteractionResponseEdit(i, e); err != nil {
		b.log.Warn("discord: editing an answer", "err", err)
	}
}

// sendOriginal fills the deferred answer of a slash command, and sends
// what does not fit as follow-ups.
func (b *Bot) sendOriginal(i *discordgo.Interaction, o outgoing, eph bool) {
	if o.empty() {
		o.content = "✓"
	}
	_, rest := o.parts()
	b.editOriginal(i, o)
	for _, p := range rest {
		b.sendFollowup(i, outgoing{content: p}, eph)
	}
}

// sendFollowup sends a follow-up message of an interaction.
func (b *Bot) sendFollowup(i *discordgo.Interaction, o outgoing, eph bool) {
	if o.empty() {
		return
	}
	first, rest := o.parts()
	p := &discordgo.WebhookParams{Content: first, Files: o.files(), Components: o.components, AllowedMentions: o.mentions(), Embeds: o.embeds}
	if eph {
		p.Flags = discordgo.MessageFlagsEphemeral
	}
	if _, err := b.c.FollowupMessageCreate(i, false, p); err != nil {
		b.log.Warn("discord: sending a follow-up", "err", err)
		return
	}
	for _, part := range rest {
		b.sendFollowup(i, outgoing{content: part}, eph)
	}
}
