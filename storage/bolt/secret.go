package bolt

import (
	"context"
	"fmt"
	"strings"

	"go.etcd.io/bbolt"
)

// Secret returns the secret kept under name in the meta bucket (the web
// board's key that signs its links), made by gen and kept the first time
// it is asked for: the bot signs with the same key across restarts.
func (s *Store) Secret(ctx context.Context, name string, gen func() ([]byte, error)) ([]byte, error) {
	if name == "" || strings.ContainsRune(name, 0) {
		return nil, fmt.Errorf("storage: bad secret name %q", name)
	}
	k := []byte("secret/" + name)
	var out []byte
	read := func(tx *bbolt.Tx) error {
		if v := tx.Bucket(bMeta).Get(k); v != nil {
			out = append([]byte(nil), v...)
		}
		return nil
	}
	if err := s.view("secret "+name, read); err != nil {
		return nil, fmt.Errorf("storage: reading secret %s: %w", name, err)
	}
	if out != nil {
		return out, nil
	}
	made, err := gen()
	if err != nil {
		return nil, err
	}
	select {
	case <-s.quit:
		return nil, fmt.Errorf("storage: keeping secret %s: %w", name, ErrClosed)
	default:
	}
	err = s.update("secret "+name, func(tx *bbolt.Tx) error {
		if err := read(tx); err != nil || out != nil {
			return err
		}
		out = made
		return tx.Bucket(bMeta).Put(k, made)
	})
	if err != nil {
		return nil, fmt.Errorf("storage: keeping secret %s: %w", name, err)
	}
	return out, nil
}
