package chat

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
)

// MaxText is the longest message Handle reads, in bytes; longer messages
// get a one-line refusal.
const MaxText = 2000

// Message is one command from a user, as a platform delivers it.
type Message struct {
	Key  sessions.Key
	User sessions.User
	// Text is the command as typed: "/move c3-d4", "/play@MyBot spanish @bob".
	Text string
	// Mentions maps names used with @ in Text (lower case, without @) to
	// users, for platforms that resolve them; unresolved @names match by name.
	Mentions map[string]sessions.User
	// ID is the platform's id of the update or interaction (may be empty).
	ID string
	// Lang is the language the platform reports for the user (Telegram's
	// language_code, Discord's locale: "es-MX", "de"), or "": the reply is
	// in that language when it has a catalogue, else in the default.
	Lang string
	// Manager: the platform says the user manages the place (Discord's
	// Manage Server): they may start and cancel any tournament there.
	Manager bool
	// Elsewhere: the message comes from away from the session's channel
	// (the web board): a change it makes is posted in the channel as a
	// notice (sessions.NoticeEvent).
	Elsewhere bool
	// Game, when not zero, is when the game the message is for was
	// created: at a key that holds another game now, the message is
	// refused (sessions.Request.Game).
	Game time.Time
	// Community is the community the message comes from
	// (sessions.Request.Community: a Discord server, a Telegram group);
	// empty in private chats and the console.
	Community string
	// InOrder: the platform answers in order, each command after the one
	// before is done (the console): a command whose work runs in the
	// background (a /review being computed) waits for it and answers with
	// its result.
	InOrder bool

	sp Speaker // the reply's language, set by Handle
}

// Reply is what the bot answers: lines of text, maybe a picture of the
// board and buttons. A zero Reply means nothing to say.
type Reply struct {
	Lines []string
	// Event is the change the reply answers, as values (its kind, the
	// acting seat, the move and the session after it: seats, whose turn,
	// legal moves, clock, offers), for adapters to build captions, buttons,
	// mentions and pings from; nil for replies that changed nothing.
	Event *sessions.Event
	// Lang is the language the reply's lines are in.
	Lang string
	// Session is the live session after the reply (the event's, or the one
	// a /board or /moves looked at), nil when none is left (the game
	// ended, the challenge was declined) or the reply is about none:
	// adapters build keyboards, captions and mentions from it without
	// asking the service again.
	Session *sessions.Snapshot
	// TurnLine is 1 + the index in Lines of the line that says whose turn
	// it is (Handler.TurnLine words it again with a mention), 0 for none.
	TurnLine int
	// Clock reports that Lines say the time left (/board).
	Clock bool
	// Picture, when set, asks the adapter to show the board.
	Picture *Picture
	// Buttons are commands offered as buttons, in order.
	Buttons []Button
	// Error marks the answer to a refused command: nothing changed. A
	// platform may show it only to the sender.
	Error bool
	// Lookup marks the answer to a command that changed nothing: a
	// read-only command (/board, /moves, /help, /games, /history, /top,
	// /rating, ...) or a refusal. Anything else is game news: a move's
	// board, a challenge and its answer, a result, a clock's notice, a
	// tournament's posts. A platform with a busy chat sends the news
	// first, and may drop a lookup that a newer message makes useless
	// (a /board answer when a newer board of the game comes, the same
	// answer waiting twice); news is never dropped. Handle sets it from
	// the command and its outcome; notices are news.
	Lookup bool
	// Duplicate marks the answer to a second delivery of an update that
	// was applied already (Message.ID seen before): an adapter may send
	// nothing at all.
	Duplicate bool
	// Limited marks the rate limit's answer to a command it refused (its
	// user sends commands faster than Config.Rate lets through): the one
	// notice (Lines, with Error), or nothing (Dropped).
	Limited bool
	// Dropped marks a command dropped unanswered: the rate limit refused
	// it after its one notice. An adapter sends nothing (an interaction or
	// a button press is acknowledged with nothing).
	Dropped bool
	// Replay, when set, asks for an animated GIF of a finished game
	// (render.Renderer.Replay(Replay.Frames, Replay.Moves, ...)), sent as a
	// file named Replay.Name.
	Replay *Replay
	// Document, when set, is a file to send (/export).
	Document *Document
	// Tour is the tournament event the reply words (a /tournament command,
	// a tournament notice), as values: the tournament, its standings.
	Tour *sessions.TourEvent
	// Table marks Lines[Table.From:Table.To] as a table aligned with
	// spaces (the standings): adapters show those lines in a monospace
	// font (a code block). Empty when From == To.
	Table Span
	// Standings, when set, asks the adapter to draw the standings as a
	// picture (render.Renderer.Standings) and send it with the lines.
	Standings *StandingsPicture
	// Web, when set, is the web board of the game the reply is about
	// (/web): the links adapters make buttons of. Its Play link plays as
	// the user: an adapter shows it to that user only.
	Web *WebBoard
	// Figure, when set, asks the adapter to draw a rating chart or a
	// player's card (Figure.PNG) and send it with the lines.
	Figure *Figure

	// failed marks a refusal that is the bot's failure (the store, a
	// damaged record, a bug), not the user's: Outcome Failed.
	failed bool
}

// Span is a range of lines, From included, To excluded.
type Span struct{ From, To int }

// StandingsPicture is a request for a picture of a tournament's standings:
// the table as values (the column headings in the reply's language) and
// the file's name ("tournament-3-round-2.png").
type StandingsPicture struct {
	Table render.StandingsTable
	Name  string
}

// Replay is a request for an animation of a game: Frames[0] is the start
// and Frames[i] the position after Moves[i-1].
type Replay struct {
	Frames []rules.View
	Moves  []rules.Move
	// Game is the game's id; Name a file name ("game-12.gif").
	Game string
	Name string
}

// Document is a file: a name ("game-12.pdn"), its type and its bytes.
type Document struct {
	Name string
	MIME string
	Data []byte
}

// Text returns the lines joined by newlines.
func (r Reply) Text() string { return strings.Join(r.Lines, "\n") }

// Picture is a request for a picture of the board.
type Picture struct {
	View rules.View
	// Last is the move to mark, nil for none.
	Last *rules.Move
	// Viewer is the seat whose point of view the picture takes.
	Viewer int
	// FEN is the position in the game's FEN format.
	FEN string
	// Game is the game's id.
	Game string
	// Seats are the game's seat names, in seat order.
	Seats []string
}

// Button is a command offered as a button.
type Button struct {
	Label   string
	Command string
}

// Config is what a Handler needs.
type Config struct {
	Sessions *sessions.Service
	// Games lists the games for /games; nil means games.List.
	Games func() []games.Info
	// Log receives unexpected errors; nil discards them.
	Log *slog.Logger
	// Lang is the bot's default language (config lang, BOT_LANG); "" is
	// DefaultLang.
	Lang string
	// Catalogues are the catalogues; nil loads the embedded ones.
	Catalogues *Catalogues
	// Langs keeps the users' /lang choices; nil keeps them in memory only.
	Langs LangStore
	// Web makes the links of the web board (/web); nil: the bot serves
	// no web board, and /web says so.
	Web WebLinks
	// Observer is told of every command answered; nil tells nobody.
	Observer Observer
	// Rate is the per-user rate limit of commands; the zero value limits
	// nothing (the bot sets DefaultRate, or its configuration's).
	Rate Rate
	// Now is the rate limit's clock; nil means time.Now.
	Now func() time.Time
}

// Handler turns messages into calls of the sessions service and their
// results into replies. It is safe for concurrent use.
type Handler struct {
	svc       *sessions.Service
	words     *Catalogues
	langStore LangStore
	links     WebLinks
	langs     userLangs
	games     func() []games.Info
	log       *slog.Logger
	observer  Observer
	cmds      map[string]*command
	order     []*command
	limit     *limiter // nil: no rate limit
	now       func() time.Time
}

// command is one command of the language.
type command struct {
	name    string
	aliases []string
	// The command's usage, one line for /help and more are the catalogue's
	// CmdUsage_<name>, CmdShort_<name> and CmdLong_<name>.
	minArgs int
	maxArgs int // -1: any number
	// reads: the command changes nothing, its answer is a Lookup.
	reads bool
	// only names the platform that has the command ("telegram"): the
	// adapter of that platform answers it; elsewhere run says it is not
	// there.
	only string
	run  func(h *Handler, ctx context.Context, m Message, args []string) Reply
}

// New returns a Handler.
func New(c Config) *Handler {
	h := &Handler{svc: c.Sessions, words: c.Catalogues, langStore: c.Langs, links: c.Web, games: c.Games, log: c.Log, observer: c.Observer, cmds: map[string]*command{},
		langs: userLangs{chosen: map[string]map[string]string{}, seen: map[string]string{}}, now: c.Now}
	if h.now == nil {
		h.now = time.Now
	}
	if r := c.Rate; on(r.PerChat, r.PerChatWindow) || on(r.Overall, r.OverallWindow) {
		h.limit = newLimiter(r)
	}
	if h.words == nil {
		w, err := NewCatalogues(c.Lang)
		if err != nil {
			// The embedded catalogues hold DefaultLang; a bad c.Lang is
			// refused by the config check before this.
			w, _ = NewCatalogues(DefaultLang)
		}
		h.words = w
	}
	if h.games == nil {
		h.games = games.List
	}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	if h.observer == nil {
		h.observer = noObserver{}
	}
	for _, c := range commandTable() {
		h.order = append(h.order, c)
		h.cmds[c.name] = c
		for _, a := range c.aliases {
			h.cmds[a] = c
		}
	}
	return h
}

// Commands lists the commands with their one-line help in the default
// language, for platforms that publish a command list (Telegram's
// setMyCommands, Discord's slash commands).
func (h *Handler) Commands() []Button {
	return h.CommandsIn("")
}

// CommandsIn lists the commands with their one-line help in lang.
func (h *Handler) CommandsIn(lang string) []Button {
	p := h.words.In(lang)
	var out []Button
	for _, c := range h.order {
		out = append(out, Button{Label: p.short(c), Command: c.name})
	}
	return out
}

// Catalogues returns the catalogues the handler speaks.
func (h *Handler) Catalogues() *Catalogues { return h.words }

func (p Speaker) usage(c *command) string { return p.T("CmdUsage_" + c.name) }
func (p Speaker) short(c *command) string { return p.T("CmdShort_" + c.name) }

// Handle answers one message. It never panics: a failure anywhere is
// logged and answered with one line saying that nothing changed. A user
// past the rate limit (Config.Rate) gets one notice, then nothing
// (Reply.Dropped) until the limit lets their commands through again.
func (h *Handler) Handle(ctx context.Context, m Message) (reply Reply) {
	name := "" // the command's, once known
	defer func() {
		if p := recover(); p != nil {
			h.log.Error("panic handling a message", m.Key.LogAttr(), "panic", fmt.Sprint(p))
			reply = fail(h.words.In(h.words.LangOf(m.Lang)).T("Panicked"))
			reply.failed = true
		}
		if reply.Limited && name == "" {
			name = h.commandName(m.Text) // refused before it was read
		}
		if len(reply.Lines) > 0 || reply.Event != nil || reply.Dropped {
			h.observer.Handled(m.Key.Platform, name, outcome(reply))
		}
	}()
	m.sp = h.words.In(h.langFor(ctx, m.Key.Platform, m.User, m.Lang))
	defer func() {
		reply.Lang = m.sp.Lang
		reply.Lookup = reply.Lookup || reply.Error
	}()
	if strings.TrimSpace(m.Text) == "" {
		return Reply{}
	}
	if r, ok := h.admit(ctx, m, m.sp); !ok {
		return r
	}
	text := m.Text
	switch {
	case len(text) > MaxText:
		return fail(m.sp.T("TooLong", "Len", len(text), "Max", MaxText))
	case !utf8.ValidString(text):
		return fail(m.sp.T("NotUTF8"))
	}
	text = strings.TrimSpace(strings.ReplaceAll(text, "\t", " "))
	if strings.ContainsFunc(text, unicode.IsControl) {
		return fail(m.sp.T("ControlChars"))
	}
	if text == "" {
		return Reply{}
	}
	if !strings.HasPrefix(text, "/") {
		return fail(m.sp.T("NoSlash"))
	}
	fields := strings.Fields(text)
	c, typed := h.find(fields[0])
	if c == nil {
		return fail(m.sp.T("UnknownCommand", "Name", clip(typed, 30)))
	}
	name = c.name
	args := fields[1:]
	if len(args) < c.minArgs {
		return fail(m.sp.T("NeedsMore", "Name", c.name, "Usage", m.sp.usage(c)))
	}
	if c.maxArgs >= 0 && len(args) > c.maxArgs {
		if c.maxArgs == 0 {
			return fail(m.sp.T("TakesNothing", "Name", c.name, "Usage", m.sp.usage(c)))
		}
		return fail(m.sp.T("TakesLess", "Name", c.name, "Usage", m.sp.usage(c)))
	}
	reply = c.run(h, ctx, m, args)
	reply.Lookup = reply.Lookup || c.reads
	return reply
}

// ReadOnly reports whether the command of that name ("board", "move")
// never changes a game, so that its answer is always a Lookup; false for
// a command that may (or whose subcommands may: "tournament"), and for a
// name that is no command.
func (h *Handler) ReadOnly(name string) bool {
	c, ok := h.cmds[strings.ToLower(name)]
	return ok && c.reads
}

func fail(line string) Reply { return Reply{Lines: []string{line}, Error: true, Lookup: true} }

func req(m Message) sessions.Request {
	return sessions.Request{Key: m.Key, User: m.User, ID: m.ID, Manager: m.Manager, Community: m.Community, Elsewhere: m.Elsewhere, Game: m.Game}
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
