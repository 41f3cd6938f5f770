package chat

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// The message catalogues, one per language, embedded in the binary: the
// file locales/<lang>.yaml and its parts locales/<lang>.<part>.yaml
// (<lang>.rules.yaml: the rules' reasons). The English files are the
// source: every message, with a description of where it shows, for
// translators. Adding a language is adding its files.
//
//go:embed locales/*.yaml
var locales embed.FS

// DefaultLang is the language of the bot when nothing else is said.
const DefaultLang = "en"

// Catalogues holds the catalogues and words messages in a language. It is safe
// for concurrent use (it is never changed after NewCatalogues).
type Catalogues struct {
	langs []string
	def   string
	cats  map[string]*catalogue
	// colours holds, per game id and number of seats, the colour of each
	// seat's pieces in the pictures (nil for games whose seats are named
	// by their colours): worked out once from a start position, since
	// naming a player must not build a board.
	colours sync.Map
}

// seatColours returns the colour of each seat's pieces of game g, as
// render draws them, or nil when its seats are named by their colours
// (only Halma's camps have colours of their own).
func (w *Catalogues) seatColours(g rules.Game) []string {
	key := g.ID() + "/" + strconv.Itoa(len(g.Seats()))
	if c, ok := w.colours.Load(key); ok {
		return c.([]string)
	}
	var out []string
	if v := g.Start(0).View(); len(v.Camps) > 0 {
		for seat := range g.Seats() {
			out = append(out, render.SeatColor(v, seat))
		}
	}
	w.colours.Store(key, out)
	return out
}

// catalogue is one language's messages.
type catalogue struct {
	lang string
	tag  language.Tag
	msgs map[string]*message
}

// message is one message: its text in each plural form it has (CLDR
// forms: zero, one, two, few, many, other), parsed into pieces.
type message struct {
	Description string
	forms       map[plural.Form][]piece
}

// piece is literal text, or a named placeholder ({{.Name}}) when key is set.
type piece struct {
	text, key string
}

// pluralForms are the forms a message may give, by their name in the
// catalogue files.
func pluralForms() map[string]plural.Form {
	return map[string]plural.Form{"zero": plural.Zero, "one": plural.One, "two": plural.Two,
		"few": plural.Few, "many": plural.Many, "other": plural.Other}
}

var placeholderRe = regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)

// parseText splits a message text at its placeholders; any other use of
// {{ is an error (the catalogues hold text, not programs).
func parseText(text string) ([]piece, error) {
	var out []piece
	rest := text
	for {
		loc := placeholderRe.FindStringSubmatchIndex(rest)
		if loc == nil {
			break
		}
		if loc[0] > 0 {
			out = append(out, piece{text: rest[:loc[0]]})
		}
		out = append(out, piece{key: rest[loc[2]:loc[3]]})
		rest = rest[loc[1]:]
	}
	if strings.Contains(rest, "{{") || strings.Contains(rest, "}}") {
		return nil, fmt.Errorf("%q: only {{.Name}} placeholders are allowed", text)
	}
	if rest != "" {
		out = append(out, piece{text: rest})
	}
	return out, nil
}

// parseCatalogue reads a catalogue file: message id to description and
// forms. wrap, when set, rewrites every text (the tests' pseudo-language).
func parseCatalogue(buf []byte, wrap func(string) string) (map[string]*message, error) {
	var raw map[string]map[string]string
	if err := yaml.Unmarshal(buf, &raw); err != nil {
		return nil, err
	}
	forms := pluralForms()
	out := map[string]*message{}
	for id, fields := range raw {
		m := &message{forms: map[plural.Form][]piece{}}
		for k, v := range fields {
			if k == "description" {
				m.Description = v
				continue
			}
			f, ok := forms[k]
			if !ok {
				return nil, fmt.Errorf("message %s: unknown field %q", id, k)
			}
			if wrap != nil {
				v = wrap(v)
			}
			ps, err := parseText(v)
			if err != nil {
				return nil, fmt.Errorf("message %s: %w", id, err)
			}
			m.forms[f] = ps
		}
		if m.forms[plural.Other] == nil {
			return nil, fmt.Errorf("message %s: no other form", id)
		}
		out[id] = m
	}
	return out, nil
}

// loadCatalogues reads the catalogue files of fsys: a language's messages
// are those of locales/<lang>.yaml and of every locales/<lang>.<part>.yaml
// (en.rules.yaml: the rules' reasons). A message id given twice in a
// language, or a part whose language has no main file, is an error.
func loadCatalogues(fsys fs.FS, wrap func(string) string) (map[string]map[string]*message, error) {
	files, err := fs.Glob(fsys, "locales/*.yaml")
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]*message{}
	from := map[string]string{} // lang + " " + id: the file that gave it
	for _, f := range files {
		lang, _, _ := strings.Cut(strings.TrimSuffix(path.Base(f), ".yaml"), ".")
		if !slices.Contains(files, "locales/"+lang+".yaml") {
			return nil, fmt.Errorf("catalogue %s: no locales/%s.yaml for its language", f, lang)
		}
		buf, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		msgs, err := parseCatalogue(buf, wrap)
		if err != nil {
			return nil, fmt.Errorf("catalogue %s: %w", f, err)
		}
		if out[lang] == nil {
			out[lang] = map[string]*message{}
		}
		for id, m := range msgs {
			if prev, dup := from[lang+" "+id]; dup {
				return nil, fmt.Errorf("catalogue %s: message %s is in %s already", f, id, prev)
			}
			from[lang+" "+id] = f
			out[lang][id] = m
		}
	}
	return out, nil
}

// placeholders lists the named placeholders of every form of m, sorted.
func (m *message) placeholders() []string {
	var out []string
	for _, ps := range m.forms {
		for _, p := range ps {
			if p.key != "" && !slices.Contains(out, p.key) {
				out = append(out, p.key)
			}
		}
	}
	slices.Sort(out)
	return out
}

// NewCatalogues loads the embedded catalogues; def is the default language
// (config lang), which must be one of them.
func NewCatalogues(def string) (*Catalogues, error) {
	return newCatalogues(locales, def, nil)
}

// NewCataloguesFS loads the catalogues locales/*.yaml of fsys instead of the
// embedded ones (tests use small catalogues of their own).
func NewCataloguesFS(fsys fs.FS, def string) (*Catalogues, error) {
	return newCatalogues(fsys, def, nil)
}

// newCatalogues loads the catalogues of fsys; wrap, when set, rewrites every
// message (the tests' pseudo-language).
func newCatalogues(fsys fs.FS, def string, wrap func(string) string) (*Catalogues, error) {
	if def == "" {
		def = DefaultLang
	}
	cats, err := loadCatalogues(fsys, wrap)
	if err != nil {
		return nil, err
	}
	w := &Catalogues{cats: map[string]*catalogue{}}
	for lang, msgs := range cats {
		tag, err := language.Parse(lang)
		if err != nil {
			return nil, fmt.Errorf("catalogue %s: %w", lang, err)
		}
		w.cats[lang] = &catalogue{lang: lang, tag: tag, msgs: msgs}
		w.langs = append(w.langs, lang)
	}
	slices.Sort(w.langs)
	if w.cats[def] == nil {
		return nil, fmt.Errorf("language %q has no catalogue (have %s)", def, strings.Join(w.langs, ", "))
	}
	w.def = def
	return w, nil
}

// Langs lists the languages of the catalogues.
func (w *Catalogues) Langs() []string { return slices.Clone(w.langs) }

// Default is the default language.
func (w *Catalogues) Default() string { return w.def }

// Has reports whether lang has a catalogue.
func (w *Catalogues) Has(lang string) bool { return w.cats[lang] != nil }

// In returns a speaker of lang (the default when lang has no catalogue).
func (w *Catalogues) In(lang string) Speaker {
	c := w.cats[lang]
	if c == nil {
		c = w.cats[w.def]
	}
	return Speaker{w: w, c: c, Lang: c.lang}
}

// Speaker words messages in one language; a message its catalogue lacks
// comes from the default language's, then from English.
type Speaker struct {
	w    *Catalogues
	c    *catalogue
	Lang string
}

// find returns message id and the catalogue it comes from.
func (p Speaker) find(id string) (*message, *catalogue) {
	if p.c == nil {
		return nil, nil
	}
	for _, c := range []*catalogue{p.c, p.w.cats[p.w.def], p.w.cats[DefaultLang]} {
		if c == nil {
			continue
		}
		if m := c.msgs[id]; m != nil {
			return m, c
		}
	}
	return nil, nil
}

// T words message id with its named placeholders, given as pairs: "Name",
// value, .... A count, for plural forms, is the pair "Count", n: the form
// is the one CLDR gives the speaker's language for n.
func (p Speaker) T(id string, kv ...any) string {
	m, c := p.find(id)
	if m == nil {
		// A message missing from every catalogue is a bug the catalogue
		// test catches; show its id rather than nothing.
		return id
	}
	form := plural.Other
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] == "Count" {
			if n, ok := kv[i+1].(int); ok {
				if n < 0 {
					n = -n
				}
				form = plural.Cardinal.MatchPlural(c.tag, n%10000000, 0, 0, 0, 0)
			}
		}
	}
	pieces := m.forms[form]
	if pieces == nil {
		pieces = m.forms[plural.Other]
	}
	var b strings.Builder
	for _, pc := range pieces {
		if pc.key == "" {
			b.WriteString(pc.text)
			continue
		}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == pc.key {
				switch v := kv[i+1].(type) {
				case string:
					b.WriteString(v)
				case int:
					b.WriteString(strconv.Itoa(v))
				default:
					fmt.Fprint(&b, v)
				}
				break
			}
		}
	}
	return b.String()
}

// Maybe words message id like T, and reports false when no catalogue
// has it (an optional message: the long help of a command).
func (p Speaker) Maybe(id string, kv ...any) (string, bool) {
	if m, _ := p.find(id); m == nil {
		return "", false
	}
	return p.T(id, kv...), true
}

// LangOf maps a platform's language tag (Telegram's language_code "es-MX",
// Discord's locale "es-419") to a catalogue's language, or "" when none
// fits. Filipino ("fil") is spoken as Tagalog.
func (w *Catalogues) LangOf(tag string) string {
	base, _, _ := strings.Cut(strings.ToLower(strings.ReplaceAll(tag, "_", "-")), "-")
	if base == "fil" {
		base = "tl"
	}
	if w.Has(base) {
		return base
	}
	return ""
}

// LangStore keeps the languages users chose with /lang (storage.Store).
type LangStore interface {
	SetLang(ctx context.Context, platform, userID, lang string) error
	Langs(ctx context.Context, platform string) (map[string]string, error)
}

// userLangs is what a Handler knows of its users' languages: their
// choices (/lang), read from the LangStore once per platform, and the
// language each platform last reported for them, for the notices.
type userLangs struct {
	mu     sync.Mutex
	chosen map[string]map[string]string // platform → user id → lang
	seen   map[string]string            // platform 0 user id → lang
}

// chosenLangs returns the choices of platform's users, read from the
// store once; h.langs.mu is held.
func (h *Handler) chosenLangs(ctx context.Context, platform string) map[string]string {
	if c, ok := h.langs.chosen[platform]; ok {
		return c
	}
	c := map[string]string{}
	if h.langStore != nil {
		got, err := h.langStore.Langs(ctx, platform)
		if err != nil {
			h.log.Error("reading the users' languages", "platform", platform, "err", err)
			return c // not kept: read again next time
		}
		c = got
	}
	h.langs.chosen[platform] = c
	return c
}

// langFor is the language to answer user in: their /lang choice, else
// the one their platform reports (tag), else the last one it reported,
// else the default.
func (h *Handler) langFor(ctx context.Context, platform string, u sessions.User, tag string) string {
	h.langs.mu.Lock()
	defer h.langs.mu.Unlock()
	if l := h.chosenLangs(ctx, platform)[u.ID]; h.words.Has(l) {
		return l
	}
	k := u.Key(platform)
	if l := h.words.LangOf(tag); l != "" {
		if h.langs.seen[k] != l {
			h.langs.seen[k] = l
		}
		return l
	}
	if l := h.langs.seen[k]; l != "" {
		return l
	}
	return h.words.Default()
}

// LangFor is the language to answer user of platform in, tag being the
// language their platform reports ("" for none).
func (h *Handler) LangFor(ctx context.Context, platform string, u sessions.User, tag string) string {
	return h.langFor(ctx, platform, u, tag)
}

// LangOfUser is the language the bot speaks to user of platform: for
// adapters that word lines of their own (pings, captions).
func (h *Handler) LangOfUser(ctx context.Context, platform string, u sessions.User) string {
	return h.langFor(ctx, platform, u, "")
}

// noticeLang is the language of a notice: its addressee's, or for a post
// in the channel, that of the player who started the game.
func (h *Handler) noticeLang(n sessions.Notice) string {
	u := n.To
	switch {
	case !u.IsZero():
	case n.Kind == sessions.NoticeTournament && n.Tour != nil && n.Tour.Tournament != nil:
		u = n.Tour.Tournament.Organiser
	case n.Kind == sessions.NoticeReviewed:
		u = n.By // the review's post: in the language of who asked // the tournament's posts: in its organiser's
	case n.Session != nil:
		u = n.Session.Record.Challenger
	}
	if u.IsZero() || u.Computer {
		return h.words.Default()
	}
	return h.langFor(context.Background(), n.Key.Platform, u, "")
}

// lang answers /lang: alone, the speaker's language and the choices;
// with a language, sets it for the speaker (kept in the LangStore).
func (h *Handler) lang(ctx context.Context, m Message, args []string) Reply {
	choices := strings.Join(h.words.Langs(), "|")
	if len(args) == 0 {
		return Reply{Lines: []string{m.sp.T("LangIs", "Name", m.sp.T("LangName"), "Lang", m.sp.Lang, "Choices", choices)}}
	}
	l := strings.ToLower(args[0])
	if !h.words.Has(l) {
		return fail(m.sp.T("LangUnknown", "Lang", clip(args[0], 20), "Choices", choices))
	}
	if h.langStore != nil {
		if err := h.langStore.SetLang(ctx, m.Key.Platform, m.User.ID, l); err != nil {
			h.log.Error("saving a language", "platform", m.Key.Platform, "err", err)
			return fail(m.sp.T("LangNotSaved"))
		}
	}
	h.langs.mu.Lock()
	h.chosenLangs(ctx, m.Key.Platform)[m.User.ID] = l
	h.langs.mu.Unlock()
	p := h.words.In(l)
	return Reply{Lines: []string{p.T("LangSet", "Name", p.T("LangName"))}, Lang: l}
}
