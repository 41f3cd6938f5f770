// Package chattest helps the adapters' tests speak a second language
// before its catalogue exists: a tiny Spanish catalogue next to the real
// English one.
package chattest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing/fstest"

	"github.com/boardgamebot/bot/chat"
	"go.yaml.in/yaml/v3"
)

// Spanish is a test catalogue: a few messages of a game in Spanish; the
// others fall back to English.
const Spanish = `
LangName:
  other: "Español"
ToMove:
  other: "Turno de {{.Player}}: /move <jugada>."
EventMoved:
  other: "{{.Player}} jugó {{.Move}}."
EventStarted:
  other: "Empieza la partida: {{.Game}}, {{.Players}}; {{.Terms}}."
SeatWhite:
  other: "Blancas"
SeatBlack:
  other: "Negras"
LangSet:
  other: "Desde ahora te hablo en {{.Name}}."
CmdShort_move:
  other: "jugar una jugada, como /move c3-d4"
`

// Catalogues returns the English catalogue of chat and the test
// Spanish one, default def.
func Catalogues(def string) (*chat.Catalogues, error) {
	_, file, _, _ := runtime.Caller(0)
	en, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "locales", "en.yaml"))
	if err != nil {
		return nil, err
	}
	return chat.NewCataloguesFS(fstest.MapFS{
		"locales/en.yaml": {Data: en},
		"locales/es.yaml": {Data: []byte(Spanish)},
	}, def)
}

// Pseudo returns the English catalogue with every message wrapped in ⟦ ⟧:
// the pseudo-language, in which a line the bot sends that is not wholly
// ⟦...⟧ did not come from the catalogue.
func Pseudo() (*chat.Catalogues, error) {
	_, file, _, _ := runtime.Caller(0)
	en, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "locales", "en.yaml"))
	if err != nil {
		return nil, err
	}
	var msgs map[string]map[string]string
	if err := yaml.Unmarshal(en, &msgs); err != nil {
		return nil, err
	}
	for _, m := range msgs {
		for form, text := range m {
			if form != "description" {
				m[form] = "⟦" + text + "⟧"
			}
		}
	}
	wrapped, err := yaml.Marshal(msgs)
	if err != nil {
		return nil, err
	}
	return chat.NewCataloguesFS(fstest.MapFS{"locales/en.yaml": {Data: wrapped}}, "en")
}

// FromCatalogue reports whether a line sent in the pseudo-language came
// from the catalogue: it starts with ⟦ and ends with ⟧ (messages put
// together in one line, or one inside another, keep that shape).
func FromCatalogue(line string) bool {
	return strings.HasPrefix(line, "⟦") && strings.HasSuffix(line, "⟧")
}
