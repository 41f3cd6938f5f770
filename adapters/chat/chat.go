package chat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strconv"
	"strings"
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
}

// Reply is what the bot answers: lines of text, maybe a picture of the
// board and buttons. A zero Reply means nothing to say.
type Reply struct {
	Lines []string
	// Picture, when set, asks the adapter to show the board.
	Picture *Picture
	// Buttons are commands offered as buttons, in order.
	Buttons []Button
	// Error marks the answer to a refused command: nothing changed. A
	// platform may show it only to the sender.
	Error bool
	// Duplicate marks the answer to a second delivery of an update that
	// was applied already (Message.ID seen before): an adapter may send
	// nothing at all.
	Duplicate bool
	// Replay, when set, asks for an animated GIF of a finished game
	// (render.Renderer.Replay(Replay.Frames, Replay.Moves, ...)), sent as a
	// file named Replay.Name.
	Replay *Replay
	// Document, when set, is a file to send (/export).
	Document *Document
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
}

// Handler turns messages into calls of the sessions service and their
// results into replies. It is safe for concurrent use.
type Handler struct {
	svc   *sessions.Service
	games func() []games.Info
	log   *slog.Logger
	cmds  map[string]*command
	order []*command
}

// command is one command of the language.
type command struct {
	name    string
	aliases []string
	usage   string // "/move <move>"
	short   string // one line for /help
	long    string // more for /help <name>
	minArgs int
	maxArgs int // -1: any number
	// only names the platform that has the command ("telegram"): the
	// adapter of that platform answers it; elsewhere run says it is not
	// there.
	only string
	run  func(h *Handler, ctx context.Context, m Message, args []string) Reply
}

// New returns a Handler.
func New(c Config) *Handler {
	h := &Handler{svc: c.Sessions, games: c.Games, log: c.Log, cmds: map[string]*command{}}
	if h.games == nil {
		h.games = games.List
	}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
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

// Commands lists the commands with their one-line help, for platforms that
// publish a command list (Telegram's setMyCommands, Discord's slash commands).
func (h *Handler) Commands() []Button {
	var out []Button
	for _, c := range h.order {
		out = append(out, Button{Label: c.short, Command: c.name})
	}
	return out
}

// Handle answers one message. It never panics: a failure anywhere is
// logged and answered with one line saying that nothing changed.
func (h *Handler) Handle(ctx context.Context, m Message) (reply Reply) {
	defer func() {
		if p := recover(); p != nil {
			h.log.Error("panic handling a message", "session", m.Key.String(), "panic", fmt.Sprint(p))
			reply = fail("Sorry, something went wrong with that command; nothing changed. Try /board.")
		}
	}()
	text := m.Text
	switch {
	case len(text) > MaxText:
		return fail(fmt.Sprintf("That message is too long (%d bytes; commands fit in %d): /help lists the commands.", len(text), MaxText))
	case !utf8.ValidString(text):
		return fail("That message is not valid UTF-8 text: type the command again, /help lists them.")
	}
	text = strings.TrimSpace(strings.ReplaceAll(text, "\t", " "))
	if strings.ContainsFunc(text, unicode.IsControl) {
		return fail("That message contains control characters: type the command again, /help lists them.")
	}
	if text == "" {
		return Reply{}
	}
	if !strings.HasPrefix(text, "/") {
		return fail("Commands start with a slash, like /move c3-d4 or /play spanish @bob: /help lists them.")
	}
	fields := strings.Fields(text)
	name := strings.ToLower(strings.TrimPrefix(fields[0], "/"))
	if at := strings.IndexByte(name, '@'); at >= 0 {
		name = name[:at] // "/play@MyBot" in Telegram groups
	}
	c, ok := h.cmds[name]
	if !ok {
		return fail(fmt.Sprintf("I don't know the command /%s: /help lists the commands.", clip(name, 30)))
	}
	args := fields[1:]
	if len(args) < c.minArgs {
		return fail(fmt.Sprintf("/%s needs more: %s (/help %s).", c.name, c.usage, c.name))
	}
	if c.maxArgs >= 0 && len(args) > c.maxArgs {
		if c.maxArgs == 0 {
			return fail(fmt.Sprintf("/%s takes nothing after it: just %s.", c.name, c.usage))
		}
		return fail(fmt.Sprintf("/%s takes less: %s (/help %s).", c.name, c.usage, c.name))
	}
	return c.run(h, ctx, m, args)
}

// count writes n and a noun, made plural with an s unless n is 1: "1
// move", "3 moves".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func fail(line string) Reply { return Reply{Lines: []string{line}, Error: true} }

func req(m Message) sessions.Request {
	return sessions.Request{Key: m.Key, User: m.User, ID: m.ID}
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// ---- replies to events ----

// player names a seat: "alice (White)", "bob (Player 2, blue)".
func player(s *sessions.Snapshot, seat int) string {
	u := s.Player(seat)
	if u.IsZero() {
		return "an open seat (" + SeatLabel(s, seat) + ")"
	}
	return u.Name + " (" + SeatLabel(s, seat) + ")"
}

// SeatLabel names a seat for people: its name ("White"), and, where the
// seats are numbered (Halma's camps), the colour of its pieces in the
// pictures too ("Player 2, blue").
func SeatLabel(s *sessions.Snapshot, seat int) string {
	if c := seatColour(s, seat); c != "" {
		return s.SeatName(seat) + ", " + c
	}
	return s.SeatName(seat)
}

// seatWords names a seat in running text: "White", "Player 2 (blue)".
func seatWords(s *sessions.Snapshot, seat int) string {
	if c := seatColour(s, seat); c != "" {
		return s.SeatName(seat) + " (" + c + ")"
	}
	return s.SeatName(seat)
}

// seatColour is the colour of a Halma seat's pieces, as render draws
// them; "" for the other games, whose seats are named by their colours.
func seatColour(s *sessions.Snapshot, seat int) string {
	if s == nil || s.Game == nil {
		return ""
	}
	var v rules.View
	if s.State != nil {
		v = s.State.View()
	} else {
		v = s.Game.Start(s.Record.First).View()
	}
	if len(v.Camps) == 0 {
		return ""
	}
	return render.SeatColour(v, seat)
}

// players lists every seat: "alice (White) vs bob (Black)".
func players(s *sessions.Snapshot) string {
	var parts []string
	for i := range s.Record.Seats {
		parts = append(parts, player(s, i))
	}
	return strings.Join(parts, " vs ")
}

// gameTitle names the game with the options that differ from what the
// game would have without them ("Halma (players=4)").
func gameTitle(s *sessions.Snapshot) string {
	title := s.Game.Name()
	var opts []string
	if info, ok := games.Lookup(s.Game.ID()); ok {
		for _, o := range info.Options {
			v := s.Record.Options[o.Key]
			if v == "" {
				continue
			}
			without := map[string]string{}
			for k, x := range s.Record.Options {
				if k != o.Key {
					without[k] = x
				}
			}
			if g, err := games.New(s.Game.ID(), without); err == nil && g.Options()[o.Key] == v {
				continue
			}
			opts = append(opts, o.Key+"="+v)
		}
	}
	if len(opts) > 0 {
		title += " (" + strings.Join(opts, " ") + ")"
	}
	return title
}

// status says whose turn it is, or who has to set up.
func status(s *sessions.Snapshot) string {
	if p := s.Pending(); len(p) > 0 {
		var names []string
		for _, seat := range p {
			names = append(names, player(s, seat))
		}
		return "Set-up step: " + strings.Join(names, " and ") + " to choose a formation: /setup default, or /setup and your squares."
	}
	if t := s.Turn(); t >= 0 {
		if s.Player(t).Computer {
			return player(s, t) + " is thinking…"
		}
		return player(s, t) + " to move: /move <move> (/moves lists them)."
	}
	return ""
}

// ResultLine tells how a game ended, in the words every platform uses:
// "Game over: alice (White) wins (Black resigned). Saved as game #12."
func ResultLine(s *sessions.Snapshot) string {
	line := result(s)
	if s.Record.ID != "" {
		line += " Saved as game #" + s.Record.ID + "."
	}
	return line
}

// result tells how a game ended: "Game over: alice (White) wins (Black
// resigned)."
func result(s *sessions.Snapshot) string {
	r := s.Record.Result
	line := "Game over: "
	switch {
	case r.Winner >= 0:
		line += player(s, r.Winner) + " wins"
	case drawn(s.Record) && len(s.Record.Seats) > 2:
		var names []string
		for seat := range s.Record.Seats {
			if !s.Record.Retired(seat) {
				names = append(names, player(s, seat))
			}
		}
		line += "draw between " + andList(names)
	case drawn(s.Record):
		line += "draw"
	default:
		line += "no winner"
	}
	if r.Reason != "" {
		line += " (" + r.Reason + ")"
	}
	return line + "."
}

// drawn reports whether a finished game ended in a draw: without a winner
// in a game of two, or by agreement in a game of more (where a game can
// also end with no winner, when the last person resigns).
func drawn(rec *sessions.Record) bool {
	r := rec.Result
	return r != nil && r.Winner < 0 && (len(rec.Seats) == 2 || strings.HasPrefix(r.Reason, "draw"))
}

// andList joins names as people do: "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// picture asks for the board from the point of view of the player to
// move, else of the sender's seat, else of the first seat.
func picture(s *sessions.Snapshot, viewer sessions.User) *Picture {
	if s == nil || s.State == nil {
		return nil
	}
	seat := s.Turn()
	if seat < 0 {
		seat = 0
		if mine := s.Record.SeatsOf(viewer); len(mine) > 0 {
			seat = mine[0]
		}
	}
	v := s.State.View()
	if s.Record.Result != nil { // ended by resignation, agreement or the clock: the rules may not know
		v.Turn, v.Movable = -1, nil
	}
	last := s.Last
	if sq, ok := turnHuff(s, v); ok && last != nil {
		m := *last
		m.Captured = append(slices.Clip(m.Captured), sq)
		last = &m
	}
	return &Picture{View: v, Last: last, Viewer: seat, FEN: s.State.FEN(), Game: s.Game.ID(), Seats: s.Game.Seats()}
}

// turnHuff returns the square of the piece huffed in the turn now shown:
// the last action, or the one before the mover's move. The picture marks
// it as the captured pieces are marked (a cross), with the last move.
func turnHuff(s *sessions.Snapshot, v rules.View) (rules.Square, bool) {
	acts := s.Record.Actions
	i := len(acts) - 1
	if i > 0 && acts[i].Kind == sessions.ActMove && acts[i-1].Seat == acts[i].Seat {
		i--
	}
	if i < 0 || acts[i].Kind != sessions.ActHuff {
		return rules.Square{}, false
	}
	return squareNamed(v, acts[i].Text)
}

// squareNamed finds the square text names on the board of v: algebraic
// ("b4") or, where the squares are numbered, its number ("14").
func squareNamed(v rules.View, text string) (rules.Square, bool) {
	if sq, err := rules.ParseSquare(text, v.Size); err == nil {
		return sq, true
	}
	for sq, n := range v.Numbers {
		if strconv.Itoa(n) == strings.TrimSpace(text) {
			return sq, true
		}
	}
	return rules.Square{}, false
}

var (
	challengeButtons = []Button{{"Accept", "/accept"}, {"Decline", "/decline"}}
	gameButtons      = []Button{{"Moves", "/moves"}, {"Draw", "/draw"}, {"Resign", "/resign"}}
)

// eventReply turns a committed change into its reply.
func eventReply(ev sessions.Event) Reply {
	s := ev.Session
	by := ev.By.Name
	var r Reply
	add := func(format string, args ...any) { r.Lines = append(r.Lines, fmt.Sprintf(format, args...)) }
	switch ev.Kind {
	case sessions.EvChallenged:
		rec := s.Record
		open := len(rec.Seats) - 1
		var who string
		switch {
		case len(rec.Invited) == 0:
			who = "anyone here"
		default:
			var names []string
			for _, u := range rec.Invited {
				names = append(names, u.Name)
			}
			who = strings.Join(names, " and ")
			if len(rec.Invited) < open {
				who += " and anyone here"
			}
		}
		if open == 1 && len(rec.Invited) == 1 && rec.Invited[0].Is(rec.Challenger) {
			add("%s challenges themselves to %s (a game against yourself is never rated); %s plays %s; %s.", by, gameTitle(s), by, seatWords(s, ev.Seat), clockTerms(s.Record))
			add("%s: /accept to take the other side too, or /cancel.", by)
			r.Buttons = challengeButtons
			return r
		}
		add("%s challenges %s to %s; %s plays %s; %s.", by, who, gameTitle(s), by, seatWords(s, ev.Seat), Terms(s))
		if open > 1 {
			add("%d seats to fill: /accept to join, /decline to refuse; %s can /cancel.", open, by)
		} else {
			add("/accept to play, /decline to refuse; %s can /cancel.", by)
		}
		r.Buttons = challengeButtons
		return r
	case sessions.EvJoined:
		open := 0
		for _, u := range s.Record.Seats {
			if u.IsZero() {
				open++
			}
		}
		add("%s joins as %s; %d more to /accept.", by, seatWords(s, ev.Seat), open)
		r.Buttons = challengeButtons
		return r
	case sessions.EvStarted:
		add("Game on: %s, %s; %s.", gameTitle(s), players(s), Terms(s))
	case sessions.EvDeclined:
		add("%s declines the challenge. /play to start another game.", by)
		return r
	case sessions.EvCancelled:
		add("%s withdraws the challenge. /play to start another game.", by)
		return r
	case sessions.EvFormed:
		add("%s has chosen a formation.", player(s, ev.Seat))
	case sessions.EvMoved:
		add("%s played %s.", player(s, ev.Seat), ev.Move.Text)
	case sessions.EvHuffed:
		add("%s huffs the piece on %s; now %s plays a move.", player(s, ev.Seat), s.Record.Actions[len(s.Record.Actions)-1].Text, by)
	case sessions.EvDrawOffered:
		add("%s offers a draw: /draw or /accept to agree, /decline to refuse.", player(s, ev.Seat))
		return r
	case sessions.EvDrawDeclined:
		add("%s declines the draw; play on.", by)
		return r
	case sessions.EvDrawAgreed:
		add("%s accepts the draw.", player(s, ev.Seat))
	case sessions.EvResigned:
		if !ev.Ended() { // more players: the others play on
			add("%s resigns and leaves the game; the others play on.", player(s, ev.Seat))
			break
		}
		add("%s resigns.", player(s, ev.Seat))
	case sessions.EvTakebackAsked:
		add("%s asks to take back their last move: %s, /accept or /decline.", player(s, ev.Seat), opponents(s, ev.Seat))
		r.Buttons = challengeButtons
		return r
	case sessions.EvTakebackDeclined:
		add("%s refuses the takeback; play on.", by)
		return r
	case sessions.EvTakenBack:
		add("%s's last move is taken back.", player(s, ev.Seat))
	}
	if ev.Ended() {
		add("%s", ResultLine(s))
		if l := ratingLine(s); l != "" {
			add("%s", l)
		}
		r.Picture = picture(s, ev.By)
		r.Buttons = []Button{{"Rematch", "/rematch"}}
		return r
	}
	if st := status(s); st != "" {
		add("%s", st)
	}
	r.Picture = picture(s, ev.By)
	r.Buttons = gameButtons
	return r
}

// ---- errors: the one place that turns them into text ----

// errorReply turns an error of the sessions service into one line that ends
// with the command that helps.
func (h *Handler) errorReply(cmd string, m Message, err error) Reply {
	var se *sessions.Error
	if !errors.As(err, &se) {
		h.log.Error("unexpected error", "command", cmd, "session", m.Key.String(), "err", err)
		return fail("Sorry, something went wrong; nothing changed. Try again, or /board.")
	}
	s := se.Session
	me := m.User
	isChallenger := s != nil && s.Record.Challenger.Is(me)
	rulesMsg := ""
	var re *rules.Error
	if errors.As(err, &re) {
		rulesMsg = re.Msg
	}
	switch se.Kind {
	case sessions.ErrNoGame:
		return fail("No game is being played here: /play <game> @user starts one (/games lists the games).")
	case sessions.ErrNotStarted:
		if isChallenger {
			return fail("The game has not started: waiting for " + waitingFor(s, me) + " to /accept (you can /cancel).")
		}
		return fail("The game has not started: waiting for " + waitingFor(s, me) + " to /accept.")
	case sessions.ErrGameRunning:
		if s.Phase() == sessions.PhaseChallenge {
			return fail(fmt.Sprintf("%s has a challenge open here (%s): /accept it, or %s can /cancel it.", s.Record.Challenger.Name, gameTitle(s), s.Record.Challenger.Name))
		}
		if cmd == "cancel" {
			return fail("The game has started, so it cannot be cancelled: /resign ends it, /draw offers a draw.")
		}
		return fail(fmt.Sprintf("A game is running here (%s, %s): finish it first; /board shows it.", gameTitle(s), players(s)))
	case sessions.ErrNoChallenge:
		if s != nil && s.Phase() == sessions.PhasePlaying {
			return fail("There is no challenge or draw offer to answer here: /board shows the game, /draw offers a draw.")
		}
		return fail("There is no challenge here to answer: /play <game> @user starts one.")
	case sessions.ErrNotInvited:
		if isChallenger {
			return fail("This is your own challenge: wait for an opponent, or /cancel it.")
		}
		if cmd == "decline" && len(s.Record.Invited) == 0 {
			return fail("This challenge is open to anyone; you need not answer it (/accept to play).")
		}
		return fail("This challenge is for " + waitingFor(s, me) + ", not for you: /play your own game when this one is over.")
	case sessions.ErrAlreadyJoined:
		if isChallenger {
			return fail("You opened this challenge: waiting for " + waitingFor(s, me) + " to /accept (or /cancel it).")
		}
		return fail("You already have a seat: waiting for " + waitingFor(s, me) + " to /accept.")
	case sessions.ErrNotChallenger:
		return fail(fmt.Sprintf("Only %s, who opened the challenge, can cancel it: /decline refuses it.", s.Record.Challenger.Name))
	case sessions.ErrNotPlayer:
		if cmd == "rematch" {
			return fail("You are not playing in the last game here, so there is no rematch for you: /play <game> @user starts a new one.")
		}
		if s == nil {
			return fail("No game is being played here: /play <game> @user starts one.")
		}
		if s.Phase() == sessions.PhasePlaying && len(s.Record.SeatsOf(me)) > 0 {
			return fail("You have left this game; the others play on without you: /board shows it.")
		}
		return fail(fmt.Sprintf("You are not playing in this game (%s): /board shows it.", players(s)))
	case sessions.ErrNotYourTurn:
		return fail(fmt.Sprintf("It is %s's turn (%s), not yours: wait for their move; /board shows the game.", s.Player(s.Turn()).Name, SeatLabel(s, s.Turn())))
	case sessions.ErrIllegalMove:
		if cmd == "huff" {
			return fail(sentence(rulesMsg) + " " + huffHint(s))
		}
		return fail(illegalMove(s, rulesMsg))
	case sessions.ErrBadSetup:
		return fail(sentence(rulesMsg) + " Try /setup default, or /help setup.")
	case sessions.ErrNotNow:
		switch {
		case len(s.Pending()) > 0 && cmd != "setup":
			return fail("First each side chooses a formation: /setup default, or /setup and your squares.")
		case len(s.Pending()) > 0:
			return fail("You have chosen your formation: waiting for the other side's /setup.")
		case cmd == "setup":
			return fail("There is no set-up step now: /move plays a move.")
		case cmd == "huff" && rulesMsg != "":
			return fail(sentence(rulesMsg) + " " + huffHint(s))
		case cmd == "huff":
			return fail("This game has no huffing (only damas with huff=yes): /move plays a move.")
		case cmd == "draw" || cmd == "accept":
			return fail("The computer does not agree to draws: play on, or /resign.")
		}
		return fail("That is not possible now: /board shows the game.")
	case sessions.ErrBadOption:
		var bv *sessions.BadValue
		if errors.As(err, &bv) {
			return fail(fmt.Sprintf("%s=%s is not allowed (choose %s). /games lists the games and their options.",
				bv.Key, clip(bv.Value, 20), orList(bv.Choices)))
		}
		if rulesMsg == "" {
			rulesMsg = se.Msg
		}
		return fail(asTyped(rulesMsg, m.Text) + " /games lists the games and their options.")
	case sessions.ErrAlreadyOffered:
		if cmd == "takeback" {
			who := "the other side"
			if s != nil && len(s.Record.Takeback) > 0 {
				who = opponents(s, s.Record.Takeback[0])
			}
			return fail("You have asked already to take your last move back: waiting for " + who + " to /accept or /decline it.")
		}
		return fail("Your draw offer stands: waiting for the other side to /accept or /decline it.")
	case sessions.ErrDuplicate:
		r := fail("Already done: this command arrived twice and was applied once (/board shows the game).")
		r.Duplicate = true
		return r
	case sessions.ErrNoSuchGame:
		if cmd == "rematch" {
			return fail("No game has finished here yet to play again: /play <game> @user starts one.")
		}
		return fail("There is no finished game with that id here: /history lists the games with their ids.")
	case sessions.ErrNoTakeback:
		return fail("There is no move of yours to take back: only your last move, before the opponent replies. /board shows the game.")
	case sessions.ErrDamaged:
		return fail("This record is damaged in the bot's database and cannot be read (the bot's log says where); other games are not affected: /help.")
	case sessions.ErrBroken:
		h.log.Error("broken session", "session", m.Key.String(), "err", err)
		return fail("The game of this channel cannot be loaded (its record does not replay; the bot's log says why): /help.")
	}
	h.log.Error("command failed", "command", cmd, "session", m.Key.String(), "err", err)
	return fail("Sorry, the bot could not save that; nothing changed. Try again in a moment (/board shows the game).")
}

// waitingFor names who may still accept a challenge, as me reads it: the
// invited users without a seat yet (and the challenger who invited
// themself, until they hold the other seat too, as sessions lets them), and
// "anyone" for the open seats beyond those; me among them is "you".
func waitingFor(s *sessions.Snapshot, me sessions.User) string {
	var names []string
	open := 0
	for _, u := range s.Record.Seats {
		if u.IsZero() {
			open++
		}
	}
	pending := 0
	for _, u := range s.Record.Invited {
		seats := len(s.Record.SeatsOf(u))
		if seats > 0 && !(u.Is(s.Record.Challenger) && seats < 2) {
			continue
		}
		pending++
		if u.Is(me) {
			names = append(names, "you")
		} else {
			names = append(names, u.Name)
		}
	}
	if open > pending {
		names = append(names, "anyone")
	}
	if len(names) == 0 {
		return "nobody"
	}
	return strings.Join(names, " or ")
}

// everyMove matches the list of all the legal moves that some rules
// errors carry ("(legal: a2-b3, b3-a4, ... 7 in all)"): illegalMove gives
// its own list instead, the same for every game.
var everyMove = regexp.MustCompile(`\s*\(legal: [^()]*\)`)

// illegalMove answers a move the rules refused with one line: their
// reason, one list of a few legal moves (none of ours when the reason
// names legal moves already: the moves of that piece, the series that go
// on), and /moves.
func illegalMove(s *sessions.Snapshot, reason string) string {
	reason = sentence(everyMove.ReplaceAllString(reason, ""))
	if s == nil || s.State == nil {
		return reason + " /moves lists the legal moves."
	}
	moves := s.State.Moves()
	switch {
	case len(moves) == 0:
		return reason + " /board shows the game."
	case namesMoves(reason, moves):
		if len(moves) == 1 {
			return reason + " /moves shows the only legal move."
		}
		return fmt.Sprintf("%s /moves lists all %d legal moves.", reason, len(moves))
	case len(moves) == 1:
		return fmt.Sprintf("%s The only legal move: /move %s.", reason, moves[0].Text)
	}
	var texts []string
	for i, mv := range moves {
		if i == 5 {
			texts = append(texts, "…")
			break
		}
		texts = append(texts, mv.Text)
	}
	return fmt.Sprintf("%s Legal moves: %s (/moves lists all %d).", reason, strings.Join(texts, ", "), len(moves))
}

// namesMoves reports whether text names one of the moves.
func namesMoves(text string, moves []rules.Move) bool {
	words := strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(`,()"`, r) })
	for _, w := range words {
		w = strings.TrimRight(w, ".:")
		for _, mv := range moves {
			if w == mv.Text {
				return true
			}
		}
	}
	return false
}

func huffHint(s *sessions.Snapshot) string {
	if s != nil && s.State != nil {
		if hf, ok := s.State.(rules.Huffer); ok {
			if sq := hf.Huffable(); len(sq) > 0 {
				var names []string
				for _, q := range sq {
					names = append(names, q.String())
				}
				return "You may huff " + strings.Join(names, ", ") + ": /huff <square>."
			}
		}
	}
	return "Nothing can be huffed now: /move plays a move."
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// sentence makes a rules message a sentence: capital, full stop.
func sentence(msg string) string {
	msg = strings.TrimSpace(msg)
	if msg == "" {
		return "That is not allowed."
	}
	msg = capital(msg)
	if !strings.HasSuffix(msg, ".") && !strings.HasSuffix(msg, "?") && !strings.HasSuffix(msg, "!") {
		msg += "."
	}
	return msg
}

// asTyped makes msg a sentence like sentence, but leaves its first word
// as it is when the user typed it (an option "color=purple", a game id, a
// name): the reply echoes what the user wrote.
func asTyped(msg, typed string) string {
	msg = strings.TrimSpace(msg)
	word, _, _ := strings.Cut(msg, " ")
	for _, f := range append(strings.Fields(typed), "") {
		if word != "" && (strings.EqualFold(strings.TrimPrefix(f, "@"), word) || strings.Contains(word, "=")) {
			if !strings.HasSuffix(msg, ".") {
				msg += "."
			}
			return msg
		}
	}
	return sentence(msg)
}

// capital capitalizes the first word of s, unless it holds a digit (a
// square or a move: "e4-d5: ..." stays as written).
func capital(s string) string {
	word, _, _ := strings.Cut(s, " ")
	if strings.ContainsFunc(word, unicode.IsDigit) {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// ---- the commands ----

func commandTable() []*command {
	return []*command{
		{name: "help", usage: "/help [command]", short: "the commands, or more about one", maxArgs: 1, run: (*Handler).help},
		{name: "games", usage: "/games", short: "the games, their ids and options", run: (*Handler).listGames},
		{name: "play", usage: "/play <game> [@user ...] [option=value ...]", minArgs: 1, maxArgs: -1,
			short: "challenge someone, or anyone here when no one is named",
			long: "Example: /play spanish @bob color=white. With no @user anyone here may accept; /play spanish bot level=3 plays the computer; halma players=4 fills four seats. " +
				"Options: the game's own (see /games) and color=white|black|random, rated=yes|no, time=5m|10m|1h|1d|3d|off (the time for each move; " +
				"when it runs out the computer plays for you, and three such moves in a row lose the game), level=1..5 (the computer's strength).",
			run: (*Handler).play},
		{name: "accept", usage: "/accept", short: "accept the challenge (or the draw offered)", run: simple((*sessions.Service).Accept, "accept")},
		{name: "decline", usage: "/decline", short: "decline the challenge (or the draw offered)", run: simple((*sessions.Service).Decline, "decline")},
		{name: "cancel", usage: "/cancel", short: "withdraw your challenge", run: simple((*sessions.Service).Cancel, "cancel")},
		{name: "setup", usage: "/setup default | /setup <squares>", minArgs: 1, maxArgs: 16,
			short: "choose your formation (Ultradamas)",
			long:  "Ultradamas: before the first move each side places its 12 pieces on 12 squares of its first three ranks, e.g. /setup a1 c1 e1 g1 b2 d2 f2 h2 a3 c3 e3 g3; /setup default takes the usual ones.",
			run:   (*Handler).setup},
		{name: "move", aliases: []string{"m"}, usage: "/move <move>", minArgs: 1, maxArgs: 1,
			short: "play a move, like /move c3-d4 or /m 11-15",
			long:  "Moves use the game's notation: c3-d4 for a step, c3xe5xg7 for a capture series (the draughts games also take square numbers, 11-15); Halma jumps list every landing square, a1-c3-e5; Ultradamas: g7^h6 loads, h6^b2 drops, two actions joined by ;.",
			run:   (*Handler).move},
		{name: "moves", usage: "/moves", short: "the legal moves now", run: (*Handler).moves},
		{name: "board", usage: "/board", short: "the board and whose turn it is", run: (*Handler).board},
		{name: "huff", usage: "/huff <square>", minArgs: 1, maxArgs: 1,
			short: "huff a piece that should have captured (damas huff=yes)",
			long:  "In damas with huff=yes capturing is not forced; instead, on your turn, you may remove (huff) an opponent's piece that could have captured, then play your move.",
			run:   (*Handler).huff},
		{name: "draw", usage: "/draw", short: "offer a draw, or accept the one offered", run: simple((*sessions.Service).Draw, "draw")},
		{name: "resign", usage: "/resign", short: "resign the game", run: simple((*sessions.Service).Resign, "resign")},
		{name: "takeback", usage: "/takeback", short: "ask to take your last move back",
			long: "Before your opponent has moved, /takeback asks to undo your last move; the opponent answers /accept or /decline. Against the computer it is granted at once and takes back its reply too.",
			run:  simple((*sessions.Service).Takeback, "takeback")},
		{name: "rematch", usage: "/rematch", short: "play again, colours swapped",
			long: "After a game, /rematch challenges the same players to the same game with the same options, colours swapped.",
			run:  simple((*sessions.Service).Rematch, "rematch")},
		{name: "notify", usage: "/notify on|off", short: "turn pings by private message", maxArgs: -1, only: "telegram",
			long: "On Telegram, /notify on has the bot write to you in a private chat when it is your turn, with a reminder before the clock plays for you and the result at the end; /notify off stops them and /notify alone tells which is set. The choice is kept when the bot restarts. Telegram lets a bot write only to users who started a private chat with it: if you have not, /notify on gives you the link. On other platforms there are no pings by private message: they are a Telegram feature.",
			run:  (*Handler).notify},
		{name: "history", usage: "/history [@user] [game]", short: "recent finished games with their ids", maxArgs: 2, run: (*Handler).history},
		{name: "show", usage: "/show <id>", short: "a finished game: summary and final board", minArgs: 1, maxArgs: 1, run: (*Handler).show},
		{name: "replay", usage: "/replay <id>", short: "a finished game as an animation", minArgs: 1, maxArgs: 1, run: (*Handler).replay},
		{name: "export", usage: "/export <id>", short: "a finished game as a file: PDN (draughts) or the move list", minArgs: 1, maxArgs: 1, run: (*Handler).export},
		{name: "rating", usage: "/rating [@user] [game]", short: "ratings: all time and this month", maxArgs: 2,
			long: "Elo, K = 30, per game, from 1000; the monthly rating starts again at 1000 each month (UTC). Rated: two-player games between two people, with rated=yes, once the winner made more than 10 moves; abandoning (three moves in a row played by the clock) costs 20 points more.",
			run:  (*Handler).rating},
		{name: "top", usage: "/top [game] [month]", short: "the ladder: top 10 and your place", maxArgs: 2,
			long: "/top spanish for the all-time ladder, /top spanish month for this month's, /top spanish 2026-10 for a past month. Without a game: the game played here, else the first three of every game.",
			run:  (*Handler).top},
	}
}

// simple runs a command without arguments.
func simple(f func(*sessions.Service, context.Context, sessions.Request) (sessions.Event, error), name string) func(*Handler, context.Context, Message, []string) Reply {
	return func(h *Handler, ctx context.Context, m Message, args []string) Reply {
		ev, err := f(h.svc, ctx, req(m))
		if err != nil {
			return h.errorReply(name, m, err)
		}
		return eventReply(ev)
	}
}

func (h *Handler) help(ctx context.Context, m Message, args []string) Reply {
	if len(args) == 1 {
		name := strings.ToLower(strings.TrimPrefix(args[0], "/"))
		c, ok := h.cmds[name]
		if !ok {
			return fail(fmt.Sprintf("There is no command /%s: /help lists them.", clip(name, 30)))
		}
		r := Reply{Lines: []string{c.usage + ": " + c.short + "."}}
		if c.long != "" {
			r.Lines = append(r.Lines, c.long)
		}
		return r
	}
	r := Reply{Lines: []string{"Commands (/help <command> tells more):"}}
	for _, c := range h.order {
		line := c.usage + " — " + c.short
		if c.only != "" && m.Key.Platform != c.only {
			line += " (" + platformName(c.only) + " only)"
		}
		r.Lines = append(r.Lines, line)
	}
	return r
}

// notify answers /notify where the platform's adapter does not: pings by
// private message are Telegram's.
func (h *Handler) notify(ctx context.Context, m Message, args []string) Reply {
	return fail("Turn pings by private message are a Telegram feature (/notify on there): here, /board shows whose turn it is.")
}

// platformName is a platform's name for people.
func platformName(p string) string {
	if p == "" {
		return p
	}
	return strings.ToUpper(p[:1]) + p[1:]
}

func (h *Handler) listGames(ctx context.Context, m Message, args []string) Reply {
	r := Reply{Lines: []string{"Games: /play <id> [@user] [option=value ...]"}}
	for _, g := range h.games() {
		line := fmt.Sprintf("%s — %s, %s players: %s.", g.ID, g.Name, g.Players, g.Summary)
		if len(g.Options) == 0 {
			line += " No options."
		}
		r.Lines = append(r.Lines, line)
		for _, o := range g.Options {
			r.Lines = append(r.Lines, fmt.Sprintf("  %s=%s (default %s): %s", o.Key, strings.Join(o.Values, "|"), o.Default, o.Help))
		}
	}
	r.Lines = append(r.Lines,
		"Every game also takes color=white|black|random (your seat, default random), rated=yes|no (default yes), "+
			"time=5m|10m|1h|1d|3d|off (time per move, default here "+h.svc.DefaultTime(m.Key.Platform).String()+") and, against the computer "+
			"(/play <game> bot), level=1..5 (default 3).")
	return r
}

func (h *Handler) play(ctx context.Context, m Message, args []string) Reply {
	spec := sessions.ChallengeSpec{Game: strings.ToLower(args[0]), Options: map[string]string{}, Play: sessions.DefaultPlayOptions()}
	if spec.Game == "bot" || strings.HasPrefix(spec.Game, "@") || strings.Contains(spec.Game, "=") {
		return fail("/play starts with the game: /play <game> [@user] [option=value] (/games lists them).")
	}
	seen := map[string]bool{}
	for _, a := range args[1:] {
		switch {
		case IsComputerName(a):
			spec.Computer = true
		case strings.HasPrefix(a, "@") && m.Mentions[strings.ToLower(a[1:])] != (sessions.User{}):
			spec.Invited = append(spec.Invited, m.Mentions[strings.ToLower(a[1:])])
		case strings.HasPrefix(a, "@"):
			name := strings.TrimPrefix(a, "@")
			if name == "" || strings.ContainsAny(name, "=@") {
				return fail(fmt.Sprintf("%q is not a user: write @name (/help play).", clip(a, 30)))
			}
			if err := CheckName(name); err != nil {
				return fail(fmt.Sprintf("%s is not a user: %v (/help play).", clip(a, 30), err))
			}
			spec.Invited = append(spec.Invited, sessions.User{Name: name})
		case strings.Contains(a, "="):
			k, v, _ := strings.Cut(a, "=")
			k = strings.ToLower(k)
			if k == "colour" {
				k = "color"
			}
			if k == "" || v == "" {
				return fail(fmt.Sprintf("%q is not an option: write key=value, like color=white (/games lists them).", clip(a, 30)))
			}
			if seen[k] {
				return fail(fmt.Sprintf("The option %s is given twice: keep one (/games lists the options).", clip(k, 20)))
			}
			seen[k] = true
			known, err := spec.Play.Set(k, v)
			if err != nil {
				return h.errorReply("play", m, err)
			}
			if !known {
				spec.Options[k] = v
			}
		default:
			return fail(fmt.Sprintf("I don't understand %q in /play: name players as @user and options as key=value (/help play).", clip(a, 30)))
		}
	}
	if spec.Computer && len(spec.Invited) > 0 {
		return fail("Play the computer or people, not both: /play <game> bot, or /play <game> @user.")
	}
	if spec.Play.Level != 0 && !spec.Computer {
		return fail("level= sets the computer's strength: /play <game> bot level=1..5.")
	}
	ev, err := h.svc.Challenge(ctx, req(m), spec)
	if err != nil {
		return h.errorReply("play", m, err)
	}
	return eventReply(ev)
}

func (h *Handler) setup(ctx context.Context, m Message, args []string) Reply {
	ev, err := h.svc.Setup(ctx, req(m), strings.Join(args, " "))
	if err != nil {
		return h.errorReply("setup", m, err)
	}
	return eventReply(ev)
}

func (h *Handler) move(ctx context.Context, m Message, args []string) Reply {
	ev, err := h.svc.Move(ctx, req(m), args[0])
	if err != nil {
		return h.errorReply("move", m, err)
	}
	return eventReply(ev)
}

func (h *Handler) huff(ctx context.Context, m Message, args []string) Reply {
	ev, err := h.svc.Huff(ctx, req(m), args[0])
	if err != nil {
		return h.errorReply("huff", m, err)
	}
	return eventReply(ev)
}

func (h *Handler) look(ctx context.Context, m Message, cmd string) (*sessions.Snapshot, *Reply) {
	s, err := h.svc.Look(ctx, m.Key)
	if err != nil {
		r := h.errorReply(cmd, m, err)
		return nil, &r
	}
	if s.Phase() == sessions.PhaseChallenge {
		r := fail(fmt.Sprintf("%s's challenge to %s (%s) is waiting for %s to /accept.", s.Record.Challenger.Name, gameTitle(s), Terms(s), waitingFor(s, m.User)))
		r.Error = false
		r.Buttons = challengeButtons
		return nil, &r
	}
	return s, nil
}

func (h *Handler) board(ctx context.Context, m Message, args []string) Reply {
	s, r := h.look(ctx, m, "board")
	if r != nil {
		return *r
	}
	out := Reply{Lines: []string{fmt.Sprintf("%s: %s, %s played; %s.", gameTitle(s), players(s), count(countMoves(s.Record), "move"), Terms(s))}}
	if s.Last != nil {
		out.Lines = append(out.Lines, "Last move: "+s.Last.Text+".")
	}
	if len(s.Record.DrawOffer) > 0 {
		var names []string
		for _, seat := range s.Record.DrawOffer {
			names = append(names, player(s, seat))
		}
		verb := " offers"
		if len(names) > 1 {
			verb = " offer"
		}
		out.Lines = append(out.Lines, strings.Join(names, " and ")+verb+" a draw: /draw or /accept to agree, /decline to refuse.")
	}
	for _, seat := range s.Record.Takeback {
		out.Lines = append(out.Lines, fmt.Sprintf("%s asks to take back their last move: %s, /accept or /decline.", player(s, seat), opponents(s, seat)))
	}
	if st := status(s); st != "" {
		out.Lines = append(out.Lines, st)
	}
	if l := clockLine(s, h.svc.Now()); l != "" {
		out.Lines = append(out.Lines, l)
	}
	out.Lines = append(out.Lines, "FEN: "+s.State.FEN())
	out.Picture = picture(s, m.User)
	out.Buttons = gameButtons
	return out
}

func countMoves(r *sessions.Record) int {
	n := 0
	for _, a := range r.Actions {
		if a.Kind == sessions.ActMove {
			n++
		}
	}
	return n
}

func (h *Handler) moves(ctx context.Context, m Message, args []string) Reply {
	s, r := h.look(ctx, m, "moves")
	if r != nil {
		return *r
	}
	if len(s.Pending()) > 0 {
		return Reply{Lines: []string{status(s)}}
	}
	moves := s.State.Moves()
	if len(moves) == 0 {
		return Reply{Lines: []string{"No legal moves now: /board shows the game."}}
	}
	var texts []string
	for _, mv := range moves {
		texts = append(texts, mv.Text)
	}
	const most = 80
	more := ""
	if len(texts) > most {
		more = fmt.Sprintf(" … and %d more", len(texts)-most)
		texts = texts[:most]
	}
	line := fmt.Sprintf("%s to move, %s: %s%s.", player(s, s.Turn()), count(len(moves), "legal move"), strings.Join(texts, " "), more)
	out := Reply{Lines: []string{line}}
	if hf, ok := s.State.(rules.Huffer); ok {
		if sq := hf.Huffable(); len(sq) > 0 {
			out.Lines = append(out.Lines, huffHint(s))
		}
	}
	return out
}
