package console

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
)

// Platform is the platform name of console session keys.
const Platform = "console"

// maxLine is the most of one input line kept; the rest is read and dropped.
const maxLine = 1 << 20

// Config is what Run needs.
type Config struct {
	Handler *chat.Handler
	In      io.Reader
	Out     io.Writer
	// As is the first speaker's name.
	As string
	// Channel names the session; empty means "terminal".
	Channel string
	// Prompt prints "name> " before each line (an interactive terminal);
	// without it each line read is echoed after the prompt, so that a
	// scripted session reads as a transcript.
	Prompt bool
	// Draw, when set, draws a picture as PNG; PictureDir is where it goes,
	// with the replays and the exported games.
	Draw       func(p *chat.Picture) ([]byte, error)
	PictureDir string
	// Animate, when set, draws a replay as an animated GIF (/replay).
	Animate func(r *chat.Replay) ([]byte, error)
	// DrawStandings, when set, draws a tournament's standings as PNG
	// (render.Renderer.Standings), written to PictureDir.
	DrawStandings func(p *chat.StandingsPicture) ([]byte, error)
	// DrawFigure, when set, draws a rating chart or a player's card as PNG
	// (chat.Figure.PNG), written to PictureDir.
	DrawFigure func(f *chat.Figure) ([]byte, error)
	// Notices, when set, are the notices of the sessions service (a
	// Notifier's): the console prints those of its channel (the computer's
	// moves, the clock's, reminders, lapsed challenges) after each command,
	// and while it waits for input.
	Notices *Notifier
	Log     *slog.Logger
}

// Notifier is the console's sessions.Notifier: it queues the notices for
// Run to print.
type Notifier struct {
	c chan sessions.Notice
}

// NewNotifier returns a Notifier that holds up to 1024 notices not yet
// printed (more are dropped, with a line in the log).
func NewNotifier() *Notifier { return &Notifier{c: make(chan sessions.Notice, 1024)} }

// Notify implements sessions.Notifier.
func (n *Notifier) Notify(ctx context.Context, no sessions.Notice) {
	select {
	case n.c <- no:
	default:
	}
}

// Run reads lines from c.In until its end or until ctx is done, and
// answers each. "/as NAME" changes the speaker; every other line is a
// message of the current speaker to the chat handler.
func Run(ctx context.Context, c Config) error {
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Channel == "" {
		c.Channel = "terminal"
	}
	t := &terminal{c: c, ctx: ctx, words: c.speaker(""), spellings: map[string]string{}}
	if err := chat.CheckName(c.As); err != nil {
		return fmt.Errorf("console: --as %q: %s", c.As, t.words.NameProblem(err))
	}
	t.channel = sessions.Key{Platform: Platform, Channel: c.Channel}
	t.key = t.channel
	t.speaker = t.spell(c.As)
	t.w = bufio.NewWriter(c.Out)
	defer t.w.Flush()
	lines := make(chan string)
	readErr := make(chan error, 1)
	go func() { readErr <- readLines(ctx, c.In, lines) }()
	t.files = lastPicture(c.PictureDir) // numbering goes on after an earlier run's pictures
	if c.Notices != nil {
		t.notices = c.Notices.c
	}
	for {
		line, ok, done := t.next(lines)
		if done {
			return nil
		}
		if !ok {
			if c.Prompt {
				fmt.Fprintln(t.w)
			}
			// The end of input waits for the computer's pending reply,
			// so that a script's last move gets its answer printed.
			settle(ctx, c, t.w, t.key, t.notices, &t.files)
			return <-readErr
		}
		t.line(line)
	}
}

// terminal is one run of the console: who speaks, where, and what was
// printed so far.
type terminal struct {
	c       Config
	ctx     context.Context
	words   chat.Speaker
	w       *bufio.Writer
	channel sessions.Key // the terminal's channel
	key     sessions.Key // where the speaker is: the channel, or one of its places (/go)
	speaker string
	files   int
	notices chan sessions.Notice
	// spellings: one spelling per person, the first one seen (this run,
	// else the game's or the store's), whatever the case of later ones:
	// /as bob after /as Bob is Bob again.
	spellings map[string]string
}

// spell is the spelling of name (see spellings).
func (t *terminal) spell(name string) string {
	name = strings.TrimPrefix(name, "@")
	lower := strings.ToLower(name)
	if s, ok := t.spellings[lower]; ok {
		return s
	}
	s := t.c.Handler.Spelling(t.ctx, t.key, name)
	t.spellings[lower] = s
	return s
}

// next prompts and waits for the next line, printing the notices that
// come meanwhile; ok is false at the end of input, done when ctx ends.
func (t *terminal) next(lines <-chan string) (line string, ok, done bool) {
	if t.c.Prompt {
		fmt.Fprintf(t.w, "%s> ", prompt(t.speaker, t.key))
	}
	t.w.Flush()
	for {
		select {
		case <-t.ctx.Done():
			fmt.Fprintln(t.w)
			return "", false, true
		case n := <-t.notices:
			if t.c.Prompt {
				fmt.Fprintln(t.w)
			}
			printNotice(t.c, t.w, t.key, n, &t.files)
			if t.c.Prompt {
				fmt.Fprintf(t.w, "%s> ", prompt(t.speaker, t.key))
			}
			t.w.Flush()
		case line, ok = <-lines:
			return line, ok, false
		}
	}
}

// line answers one line of input: the console's own /as and /go, or a
// message to the chat.
func (t *terminal) line(line string) {
	if !t.c.Prompt {
		fmt.Fprintf(t.w, "%s> %s\n", prompt(t.speaker, t.key), clip(line))
	}
	fields := strings.Fields(line)
	switch {
	case len(fields) > 0 && strings.EqualFold(fields[0], "/as"):
		t.as(fields)
	case len(fields) > 0 && strings.EqualFold(fields[0], "/go"):
		t.goTo(fields)
	default:
		m := chat.Message{Key: t.key, User: user(t.speaker), Text: line, Mentions: mentions(line, t.spell), InOrder: true}
		r := t.c.Handler.Handle(t.ctx, m)
		printReply(t.c, t.w, r, &t.files)
		t.w.Flush() // the move is acknowledged now, while the computer thinks
		if !t.c.Prompt {
			// A script reads as a transcript: the computer's reply follows
			// the move that called for it, before the next line. At a
			// terminal the prompt comes back at once and the reply is
			// printed when it is ready (the wait for input in next).
			settle(t.ctx, t.c, t.w, t.key, t.notices, &t.files)
		}
	}
}

// as is /as NAME: who speaks now.
func (t *terminal) as(fields []string) {
	switch {
	case len(fields) != 2:
		fmt.Fprintln(t.w, t.words.T("ConsoleAsOne", "Name", t.speaker))
	case chat.CheckName(fields[1]) != nil:
		why := []rune(t.words.NameProblem(chat.CheckName(fields[1])))
		why[0] = unicode.ToUpper(why[0]) // it begins the line
		fmt.Fprintln(t.w, t.words.T("ConsoleAsBad", "Why", string(why)))
	default:
		t.speaker = t.spell(fields[1])
		fmt.Fprintln(t.w, t.words.T("ConsoleYouAre", "Name", t.speaker))
	}
}

// goTo is /go [PLACE]: the speaker goes to one of the channel's places,
// or back to the channel.
func (t *terminal) goTo(fields []string) {
	switch {
	case len(fields) == 1:
		t.key = t.channel
		fmt.Fprintln(t.w, t.words.T("ConsoleGoBack", "Channel", t.c.Channel))
	case len(fields) > 2 || !placeRe.MatchString(fields[1]):
		fmt.Fprintln(t.w, t.words.T("ConsoleGoBad", "Text", clip(strings.Join(fields[1:], " "))))
	default:
		t.key = t.channel
		t.key.Thread = fields[1]
		fmt.Fprintln(t.w, t.words.T("ConsoleGoTo", "Place", t.key.Thread))
	}
}

// settle waits for the computer's pending reply in the console's session,
// if any, and prints the notices that came meanwhile.
func settle(ctx context.Context, c Config, w io.Writer, key sessions.Key, notices chan sessions.Notice, files *int) {
	if notices == nil || c.Handler.Settle(ctx, key) != nil {
		return
	}
	for {
		select {
		case n := <-notices:
			printNotice(c, w, key, n, files)
		default:
			return
		}
	}
}

// printNotice prints a notice of the console's channel or of one of its
// places (a tournament game's): the posts and the reminders; the other
// pings repeat what the posts show. A notice of another place than key's
// (where the speaker is) comes after a line that says where it is.
func printNotice(c Config, w io.Writer, key sessions.Key, n sessions.Notice, files *int) {
	if n.Key.Platform != key.Platform || n.Key.Channel != key.Channel || (!n.To.IsZero() && n.Kind != sessions.NoticeReminder) {
		return
	}
	r := c.Handler.NoticeReply(n)
	if len(r.Lines) == 0 && r.Picture == nil && r.Standings == nil {
		return // nothing to say (a tournament game's place done)
	}
	switch words := c.speaker(r.Lang); {
	case n.Key == key:
	case n.Key.Thread == "":
		fmt.Fprintln(w, words.T("ConsoleNoticeInChannel", "Channel", n.Key.Channel))
	default:
		fmt.Fprintln(w, words.T("ConsoleNoticeIn", "Place", n.Key.Thread))
	}
	printReply(c, w, r, files)
}

// placeRe matches the names /go takes: a tournament game's place
// ("t3-r2-alice-bob", see Places) or any such name.
var placeRe = regexp.MustCompile(`^[\pL\pN_.-]{1,80}$`)

// prompt is what stands before a line: the speaker, and the place when
// they are not in the channel ("alice@t3-r2-alice-bob").
func prompt(speaker string, key sessions.Key) string {
	if key.Thread == "" {
		return speaker
	}
	return speaker + "@" + key.Thread
}

// Places opens the console's tournament games: each in a place of the
// tournament's channel named "t<id>-r<round>-<white>-<black>" (a session
// key's Thread), where /go takes the speaker.
type Places struct{}

// CheckPlaces implements sessions.Places: the console opens games anywhere.
func (Places) CheckPlaces(ctx context.Context, key sessions.Key) error { return nil }

// OpenPlace implements sessions.Places.
func (Places) OpenPlace(ctx context.Context, g sessions.PlaceGame) (sessions.Key, error) {
	return sessions.Key{Platform: Platform, Channel: g.Tournament.Key.Channel, Thread: PlaceName(g.Tournament.ID, g.Round, g.White, g.Black)}, nil
}

// PlaceName is the name of the place of a tournament game:
// "t3-r2-alice-bob" (the console's user ids are the lower-case names).
func PlaceName(id string, round int, white, black sessions.User) string {
	return fmt.Sprintf("t%s-r%d-%s-%s", id, round, white.ID, black.ID)
}

// speaker words the console's own lines in lang (the handler's default
// when lang is "").
func (c Config) speaker(lang string) chat.Speaker {
	if c.Handler != nil {
		return c.Handler.Catalogues().In(lang)
	}
	w, err := chat.NewCatalogues("")
	if err != nil {
		panic(err) // the embedded catalogues are tested
	}
	return w.In(lang)
}

// printReply prints a reply's lines, its board as text, and writes its
// picture, replay or document to PictureDir.
func printReply(c Config, w io.Writer, r chat.Reply, files *int) {
	for _, l := range r.Lines {
		fmt.Fprintln(w, l)
	}
	if r.Picture != nil {
		fmt.Fprint(w, Board(r.Picture.View, r.Picture.Seats, r.Picture.Viewer))
		if c.Draw != nil && c.PictureDir != "" {
			*files++
			writeFile(c, w, r.Lang, "Picture", fmt.Sprintf("board-%04d.png", *files), func() ([]byte, error) { return c.Draw(r.Picture) })
		}
	}
	if r.Replay != nil {
		if c.Animate == nil || c.PictureDir == "" {
			fmt.Fprintln(w, c.speaker(r.Lang).T("ConsoleNoReplay"))
		} else {
			writeFile(c, w, r.Lang, "Replay", r.Replay.Name, func() ([]byte, error) { return c.Animate(r.Replay) })
		}
	}
	if r.Standings != nil && c.DrawStandings != nil && c.PictureDir != "" {
		writeFile(c, w, r.Lang, "Picture", r.Standings.Name, func() ([]byte, error) { return c.DrawStandings(r.Standings) })
	}
	if r.Figure != nil && c.DrawFigure != nil && c.PictureDir != "" {
		writeFile(c, w, r.Lang, "Picture", r.Figure.Name, func() ([]byte, error) { return c.DrawFigure(r.Figure) })
	}
	if r.Document != nil {
		if c.PictureDir == "" {
			fmt.Fprint(w, string(r.Document.Data))
		} else {
			writeFile(c, w, r.Lang, "File", r.Document.Name, func() ([]byte, error) { return r.Document.Data, nil })
		}
	}
}

// lastPicture returns the highest number of the board pictures
// (board-NNNN.png) in dir, 0 when there are none or dir cannot be read.
func lastPicture(dir string) int {
	if dir == "" {
		return 0
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	last := 0
	for _, e := range entries {
		var n int
		if _, err := fmt.Sscanf(e.Name(), "board-%d.png", &n); err == nil && e.Name() == fmt.Sprintf("board-%04d.png", n) {
			last = max(last, n)
		}
	}
	return last
}

// writeFile writes the bytes produce returns to PictureDir/name and prints
// "what: path".
func writeFile(c Config, w io.Writer, lang, what, name string, produce func() ([]byte, error)) {
	words := c.speaker(lang)
	path := filepath.Join(c.PictureDir, filepath.Base(name))
	data, err := produce()
	if err == nil {
		err = os.MkdirAll(c.PictureDir, 0o750)
	}
	if err == nil {
		err = os.WriteFile(path, data, 0o640)
	}
	if err != nil {
		c.Log.Error(strings.ToLower(what), "err", err)
		fmt.Fprintln(w, words.T("ConsoleNotWritten"+what))
		return
	}
	fmt.Fprintln(w, words.T("ConsoleWritten"+what, "Path", path))
}

// readLines sends each line of r (without its line end) to out, and closes
// out at the end of input. Lines longer than maxLine are cut there.
func readLines(ctx context.Context, r io.Reader, out chan<- string) error {
	defer close(out)
	br := bufio.NewReaderSize(r, 64*1024)
	for {
		var line []byte
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if len(line) < maxLine {
				line = append(line, chunk[:min(len(chunk), maxLine-len(line))]...)
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if len(line) > 0 || err == nil {
			s := strings.TrimRight(string(line), "\r\n")
			select {
			case out <- s:
			case <-ctx.Done():
				return nil
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("console: reading input: %w", err)
		}
	}
}

func user(name string) sessions.User {
	return sessions.User{ID: strings.ToLower(name), Name: name}
}

// mentions resolves every @name of the line to the console user of that
// name, spelt as spell says; the computer's names are left to the chat.
func mentions(line string, spell func(string) string) map[string]sessions.User {
	var m map[string]sessions.User
	for _, f := range strings.Fields(line) {
		if name, ok := strings.CutPrefix(f, "@"); ok && chat.CheckName(name) == nil {
			if m == nil {
				m = map[string]sessions.User{}
			}
			m[strings.ToLower(name)] = user(spell(name))
		}
	}
	return m
}

func clip(s string) string {
	if len(s) <= 200 {
		return strings.Map(func(r rune) rune {
			if unicode.IsControl(r) || r == utf8.RuneError {
				return '?'
			}
			return r
		}, s)
	}
	return clip(strings.ToValidUTF8(s[:200], "?")) + fmt.Sprintf("… (%d bytes)", len(s))
}

// Board draws a position as text from the side of seat viewer (-1: the
// seat to move), as the pictures are drawn (render.Layout): for White
// rank 1 at the bottom, for Black rank 8, for each Halma seat its home
// corner at the bottom left; coordinates on every side. seats are the
// seat names: a seat's piece is the first letter of its name ("w" for
// White), or, when the names begin alike (Halma's "Player 1"...), the
// first letter of its colour in the pictures ("r" for red), with a key
// below the board; capital for a king, and the capital with the level for
// higher stacks ("R3", "R5+" when an ultra king carries a piece); "." is
// an empty playing square.
func Board(v rules.View, seats []string, viewer int) string {
	rows, err := render.Layout(v, viewer)
	if err != nil {
		if rows, err = render.Layout(v, -1); err != nil {
			return ""
		}
	}
	n := len(rows)
	glyphs, key := seatGlyphs(v, seats)
	var playable map[rules.Square]bool
	if v.Playable != nil {
		playable = map[rules.Square]bool{}
		for _, s := range v.Playable {
			playable[s] = true
		}
	}
	cells := map[rules.Square]string{}
	width := 3
	for _, p := range v.Pieces {
		cells[p.Square] = pieceText(p, glyphs)
		width = max(width, len(cells[p.Square])+1)
	}
	// A line of squares is named by the file or rank its squares share.
	name := func(a, b rules.Square) string {
		if a.File == b.File {
			return string(rune('a' + a.File))
		}
		return fmt.Sprint(a.Rank + 1)
	}
	var b strings.Builder
	cols := "   "
	for c := range n {
		cols += fmt.Sprintf("%-*s", width, name(rows[0][c], rows[n-1][c]))
	}
	cols = strings.TrimRight(cols, " ") + "\n"
	b.WriteString(cols)
	for _, row := range rows {
		label := name(row[0], row[n-1])
		fmt.Fprintf(&b, "%2s ", label)
		for _, sq := range row {
			cell := "."
			if playable != nil && !playable[sq] {
				cell = ""
			}
			if c, ok := cells[sq]; ok {
				cell = c
			}
			fmt.Fprintf(&b, "%-*s", width, cell)
		}
		fmt.Fprintf(&b, "%s\n", label)
	}
	b.WriteString(cols)
	if key != "" {
		b.WriteString(key + "\n")
	}
	return b.String()
}

// seatGlyphs gives each seat a letter: the first letter of its name, or,
// when two names begin alike, of its colour in the pictures, with a key
// ("r = Player 1, b = Player 2"); the seat numbers when those clash too.
func seatGlyphs(v rules.View, seats []string) ([]string, string) {
	if g, ok := initials(seats); ok {
		return g, ""
	}
	colours := make([]string, len(seats))
	for i := range seats {
		colours[i] = render.SeatColor(v, i)
	}
	if g, ok := initials(colours); ok {
		var key []string
		for i, s := range seats {
			key = append(key, g[i]+" = "+s)
		}
		return g, strings.Join(key, ", ")
	}
	out := make([]string, len(seats))
	for i := range out {
		out[i] = fmt.Sprint(i + 1)
	}
	return out, ""
}

// initials returns the lower-case first letters of names, and whether
// they are all there and all different.
func initials(names []string) ([]string, bool) {
	out := make([]string, len(names))
	seen := map[string]bool{}
	for i, s := range names {
		g := strings.ToLower(s[:min(1, len(s))])
		if g == "" || seen[g] {
			return nil, false
		}
		seen[g] = true
		out[i] = g
	}
	return out, true
}

func pieceText(p rules.Piece, glyphs []string) string {
	g := "?"
	if p.Seat >= 0 && p.Seat < len(glyphs) {
		g = glyphs[p.Seat]
	}
	switch {
	case p.Level <= 1:
		return g
	case p.Level == 2:
		return strings.ToUpper(g)
	}
	s := strings.ToUpper(g) + fmt.Sprint(p.Level)
	if p.Carries > 0 {
		s += "+"
	}
	return s
}
