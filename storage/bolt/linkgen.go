package bolt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"

	"go.etcd.io/bbolt"

	"github.com/boardgamebot/bot/storage/dump"
)

// linkGenPrefix starts the keys of the users' link generations in the
// meta bucket: linkgen/<platform>0<user>, the generation in decimal.
const linkGenPrefix = "linkgen/"

func linkGenKey(platform, user string) []byte {
	return []byte(linkGenPrefix + platform + "\x00" + user)
}

// LinkGeneration implements sessions.LinkGenerations.
func (s *Store) LinkGeneration(ctx context.Context, platform, user string) (uint64, error) {
	var n uint64
	err := s.view("link generation", func(tx *bbolt.Tx) error {
		var err error
		n, err = linkGen(tx.Bucket(bMeta).Get(linkGenKey(platform, user)))
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("storage: reading a link generation: %w", err)
	}
	return n, nil
}

// RaiseLinkGeneration implements sessions.LinkGenerations.
func (s *Store) RaiseLinkGeneration(ctx context.Context, platform, user string) (uint64, error) {
	var n uint64
	err := s.update("link generation", func(tx *bbolt.Tx) error {
		m := tx.Bucket(bMeta)
		k := linkGenKey(platform, user)
		old, err := linkGen(m.Get(k))
		if err != nil {
			return err
		}
		n = old + 1
		return m.Put(k, strconv.AppendUint(nil, n, 10))
	})
	if err != nil {
		return 0, fmt.Errorf("storage: raising a link generation: %w", err)
	}
	return n, nil
}

// linkGen reads a stored generation (nil: 0).
func linkGen(v []byte) (uint64, error) {
	if v == nil {
		return 0, nil
	}
	n, err := strconv.ParseUint(string(v), 10, 64)
	if err != nil {
		return 0, damage(fmt.Errorf("bad link generation %q", v))
	}
	return n, nil
}

// exportLinkGenerations emits the items of dump.KindLinkGeneration.
func exportLinkGenerations(tx *bbolt.Tx, emit func(dump.Item) error) error {
	c := tx.Bucket(bMeta).Cursor()
	p := []byte(linkGenPrefix)
	for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
		if _, err := linkGen(v); err != nil {
			return err
		}
		if err := emit(dump.Item{Kind: dump.KindLinkGeneration, ID: string(k[len(p):]), Value: append([]byte(nil), v...)}); err != nil {
			return err
		}
	}
	return nil
}

// importLinkGeneration writes an item of dump.KindLinkGeneration.
func importLinkGeneration(tx *bbolt.Tx, it dump.Item) error {
	p, err := dump.SplitID(it, 2)
	if err != nil {
		return err
	}
	if n, err := linkGen(it.Value); err != nil || n == 0 {
		return errors.New("bad link generation")
	}
	return tx.Bucket(bMeta).Put(linkGenKey(p[0], p[1]), it.Value)
}
