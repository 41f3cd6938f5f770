package chat

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/boardgamebot/bot/sessions"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
)

// The message catalogues, one file per language (locales/<lang>.yaml),
// embedded in the binary. locales/en.yaml is the source: every message,
// with a description of where it shows, for translators. Adding a language
// is adding its file.
//
//go:embed locales/*.yaml
var locales embed.FS

// DefaultLang is the language of the bot when nothing else is said.
const DefaultLang = "en"

// Words holds the catalogues and words messages in a language. It is safe
// for concurrent use.
type Words struct {
	bundle *i18n.Bundle
	langs  []string
	def    string
	locs   map[string]*i18n.Localizer
}

// NewWords loads the embedded catalogues; def is the default language
// (config lang), which must be one of them.
func NewWords(def string) (*Words, error) {
	return newWords(locales, def, nil)
}

// NewWordsFS loads the catalogues locales/*.yaml of fsys instead of the
// embedded ones (tests use small catalogues of their own).
func NewWordsFS(fsys fs.FS, def string) (*Words, error) {
	return newWords(fsys, def, nil)
}

// newWords loads the catalogues of fsys; wrap, when set, rewrites every
// message (the tests' pseudo-language).
func newWords(fsys fs.FS, def string, wrap func(string) string) (*Words, error) {
	if def == "" {
		def = DefaultLang
	}
	b := i18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("yaml", yaml.Unmarshal)
	files, err := fs.Glob(fsys, "locales/*.yaml")
	if err != nil {
		return nil, err
	}
	w := &Words{bundle: b, locs: map[string]*i18n.Localizer{}}
	for _, f := range files {
		buf, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		mf, err := b.ParseMessageFileBytes(buf, f)
		if err != nil {
			return nil, fmt.Errorf("catalogue %s: %w", f, err)
		}
		if wrap != nil {
			for _, m := range mf.Messages {
				for _, form := range []*string{&m.Zero, &m.One, &m.Two, &m.Few, &m.Many, &m.Other} {
					if *form != "" {
						*form = wrap(*form)
					}
				}
			}
			if err := b.AddMessages(mf.Tag, mf.Messages...); err != nil {
				return nil, err
			}
		}
		w.langs = append(w.langs, strings.TrimSuffix(path.Base(f), ".yaml"))
	}
	slices.Sort(w.langs)
	if !slices.Contains(w.langs, def) {
		return nil, fmt.Errorf("language %q has no catalogue (have %s)", def, strings.Join(w.langs, ", "))
	}
	w.def = def
	for _, l := range w.langs {
		w.locs[l] = i18n.NewLocalizer(b, l, def, DefaultLang)
	}
	return w, nil
}

// Langs lists the languages of the catalogues.
func (w *Words) Langs() []string { return slices.Clone(w.langs) }

// Default is the default language.
func (w *Words) Default() string { return w.def }

// Has reports whether lang has a catalogue.
func (w *Words) Has(lang string) bool { return w.locs[lang] != nil }

// In returns a speaker of lang (the default when lang has no catalogue).
func (w *Words) In(lang string) Speaker {
	l := w.locs[lang]
	if l == nil {
		lang, l = w.def, w.locs[w.def]
	}
	return Speaker{loc: l, Lang: lang}
}

// Speaker words messages in one language.
type Speaker struct {
	loc  *i18n.Localizer
	Lang string
}

// T words message id with its named placeholders, given as pairs: "Name",
// value, .... A count, for plural forms, is the pair "Count", n.
func (p Speaker) T(id string, kv ...any) string {
	var data map[string]any
	var count any
	if len(kv) > 0 {
		data = make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			k := kv[i].(string)
			data[k] = kv[i+1]
			if k == "Count" {
				count = kv[i+1]
			}
		}
	}
	s, err := p.loc.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count})
	if err != nil && s == "" && count != nil {
		// A message without plural forms that names a count: its other form.
		s, err = p.loc.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data})
	}
	if err != nil && s == "" {
		// A message missing from every catalogue is a bug the catalogue
		// test catches; show its id rather than nothing.
		return id
	}
	return s
}

// Maybe words message id like T, and reports false when no catalogue
// has it (an optional message: the long help of a command).
func (p Speaker) Maybe(id string, kv ...any) (string, bool) {
	s := p.T(id, kv...)
	return s, s != id
}

// LangOf maps a platform's language tag (Telegram's language_code "es-MX",
// Discord's locale "es-419") to a catalogue's language, or "" when none
// fits. Filipino ("fil") is spoken as Tagalog.
func (w *Words) LangOf(tag string) string {
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

// chosenLangs returns the choices of platform's users, read once.
func (h *Handler) chosenLangs(ctx context.Context, platform string) map[string]string {
	h.langs.mu.Lock()
	defer h.langs.mu.Unlock()
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
	if l := h.chosenLangs(ctx, platform)[u.ID]; h.words.Has(l) {
		return l
	}
	k := platform + "\x00" + u.ID
	h.langs.mu.Lock()
	defer h.langs.mu.Unlock()
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
	if u.IsZero() && n.Session != nil {
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
	chosen := h.chosenLangs(ctx, m.Key.Platform)
	h.langs.mu.Lock()
	chosen[m.User.ID] = l
	h.langs.mu.Unlock()
	p := h.words.In(l)
	return Reply{Lines: []string{p.T("LangSet", "Name", p.T("LangName"))}, Lang: l}
}
