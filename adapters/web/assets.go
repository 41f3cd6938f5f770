package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

// The page's files: HTML (a template), CSS and JavaScript modules,
// embedded in the binary. No build step makes them: they are served as
// they are written, compressed once at start.
//
//go:embed static
var static embed.FS

// pageStyle is the pages' style sheet (static/board.css), which the
// pages carry in a <style> element: nothing holds up their first paint.
// The Content Security Policy allows it by its hash, pageStyleHash.
var pageStyle, pageStyleHash = func() (template.CSS, string) {
	b, err := fs.ReadFile(static, "static/board.css")
	if err != nil {
		panic(err) // embedded: there
	}
	sum := sha256.Sum256(b)
	return template.CSS(b), "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()

// asset is one static file, as is and gzipped.
type asset struct {
	body, gz []byte
	ctype    string
	etag     string
}

// assets are the served files and the page's template.
type assets struct {
	files map[string]asset
	page  *template.Template
	tour  *template.Template
}

func loadAssets() (assets, error) {
	a := assets{files: map[string]asset{}}
	entries, err := fs.ReadDir(static, "static")
	if err != nil {
		return a, err
	}
	for _, e := range entries {
		name := e.Name()
		b, err := fs.ReadFile(static, "static/"+name)
		if err != nil {
			return a, err
		}
		switch path.Ext(name) {
		case ".html":
			t, err := template.New(name).Funcs(template.FuncMap{"style": func() template.CSS { return pageStyle }}).Parse(string(b))
			if err != nil {
				return a, err
			}
			if name == "tournament.html" {
				a.tour = t
			} else {
				a.page = t
			}
			continue
		}
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		sum := sha256.Sum256(b)
		ctype := mime.TypeByExtension(path.Ext(name))
		if path.Ext(name) == ".js" {
			ctype = "text/javascript; charset=utf-8"
		}
		a.files[name] = asset{body: b, gz: gz.Bytes(), ctype: ctype, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
	}
	return a, nil
}

// asset serves a static file, gzipped when the browser takes it, with an
// ETag for revalidation.
func (s *Server) asset(w http.ResponseWriter, r *http.Request) {
	f, ok := s.assets.files[r.PathValue("file")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", f.etag)
	h.Set("Vary", "Accept-Encoding")
	if r.Header.Get("If-None-Match") == f.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := f.body
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		body = f.gz
	}
	_, _ = w.Write(body)
}

// writeHTML answers a page made for this request, gzipped when the
// browser takes it.
func writeHTML(w http.ResponseWriter, r *http.Request, status int, page []byte) {
	writeGzip(w, r, status, "text/html; charset=utf-8", page)
}

// writeJSONGzip answers v as JSON (a state, a game's frames), gzipped
// when the browser takes it, as the page's files are.
func writeJSONGzip(w http.ResponseWriter, r *http.Request, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	writeGzip(w, r, status, "application/json; charset=utf-8", append(b, '\n'))
}

// writeGzip answers body, made for this request, gzipped when the
// browser takes it.
func writeGzip(w http.ResponseWriter, r *http.Request, status int, ctype string, page []byte) {
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Cache-Control", "no-store")
	h.Set("Vary", "Accept-Encoding")
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(page)
		zw.Close()
		h.Set("Content-Encoding", "gzip")
		page = gz.Bytes()
	}
	w.WriteHeader(status)
	_, _ = w.Write(page)
}
