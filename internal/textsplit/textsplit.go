// Package textsplit cuts a text too long for one message into messages
// that each fit, the way a reader would: at a line break when it can, else
// at a space, else between two characters, never inside a UTF-8 rune.
package textsplit

import (
	"strings"
	"unicode/utf8"
)

// Unit is what a platform counts when it bounds the length of a message.
type Unit int

const (
	// Runes counts Unicode code points (Discord's characters; the Telegram
	// adapter's count).
	Runes Unit = iota
	// Bytes counts the bytes of the UTF-8 text.
	Bytes
)

// Len is the length of s in u.
func (u Unit) Len(s string) int {
	if u == Bytes {
		return len(s)
	}
	return utf8.RuneCountInString(s)
}

// width is the length in u of a rune of size bytes.
func (u Unit) width(size int) int {
	if u == Bytes {
		return size
	}
	return 1
}

// Split cuts s into pieces of at most n (counted in u): each piece ends at
// the last line break that keeps it within n; a longer line at its last
// space within n (the space stays at the end of the piece); a line without
// one between two runes. The line breaks it cuts at are dropped, nothing
// else is: the pieces joined with line breaks where those were make s
// again. It returns no empty piece (none for an empty s). An n too small
// for one rune still makes progress: that rune is a piece of its own.
func Split(s string, n int, u Unit) []string {
	var out []string
	for u.Len(s) > n {
		end, used := 0, 0 // end: the byte offset after the most runes within n
		for end < len(s) {
			_, size := utf8.DecodeRuneInString(s[end:])
			if used+u.width(size) > n {
				break
			}
			used += u.width(size)
			end += size
		}
		var head string
		nl := strings.LastIndexByte(s[:end], '\n')
		sp := strings.LastIndexByte(s[:end], ' ')
		switch {
		case s[end] == '\n':
			head, s = s[:end], s[end+1:]
		case nl >= 0:
			head, s = s[:nl], s[nl+1:]
		case sp > 0:
			head, s = s[:sp+1], s[sp+1:]
		case end == 0:
			_, size := utf8.DecodeRuneInString(s)
			head, s = s[:size], s[size:]
		default:
			head, s = s[:end], s[end:]
		}
		if head != "" {
			out = append(out, head)
		}
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}
