package web

import (
	"container/list"
	"sync"
	"time"
)

// cache keeps what the pages of a game version cost to make (a finished
// game's snapshot, its frames, a board's picture, a state), by game and
// version, so that a link posted far and opened by many costs the work
// once: the least recently used entries go first when the entries weigh
// more than the cache's size, and an entry lasts its time at most (a
// game erased from the store does not stay here long).
type cache struct {
	size int // bytes, roughly

	mu    sync.Mutex
	held  int
	order *list.List // of *entry, the most recently used first
	byKey map[string]*list.Element
	// work counts the values made, by kind (the key's part before its
	// first NUL): what the tests count.
	work map[string]int
	// making holds the keys whose value is being made: a second request
	// for one waits for it instead of making it too.
	making map[string]chan struct{}
}

type entry struct {
	key     string
	val     any
	weight  int
	expires time.Time
}

// cacheSize is what the server's cache may hold: 32 MB.
const cacheSize = 32 << 20

func newCache(size int) *cache {
	return &cache{size: size, order: list.New(), byKey: map[string]*list.Element{}, work: map[string]int{},
		making: map[string]chan struct{}{}}
}

// get returns the value of key, made by build when the cache does not
// hold it (or no longer), or by the request that is making it: build
// returns the value, its weight in bytes
// and how long it may be kept (0: not kept, an error or a value that may
// change). now is the clock's time.
func (c *cache) get(key string, now time.Time, build func() (val any, weight int, keep time.Duration)) any {
	c.mu.Lock()
	for {
		if e, ok := c.byKey[key]; ok {
			en := e.Value.(*entry)
			if now.Before(en.expires) {
				c.order.MoveToFront(e)
				c.mu.Unlock()
				return en.val
			}
			c.remove(e)
		}
		wait, ok := c.making[key]
		if !ok {
			break
		}
		c.mu.Unlock()
		<-wait
		c.mu.Lock()
	}
	done := make(chan struct{})
	c.making[key] = done
	c.mu.Unlock()
	val, weight, keep := build()
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.making, key)
	close(done)
	c.work[kindOf(key)]++
	if keep <= 0 || weight > c.size/8 {
		return val
	}
	if e, ok := c.byKey[key]; ok {
		c.remove(e)
	}
	c.byKey[key] = c.order.PushFront(&entry{key: key, val: val, weight: weight, expires: now.Add(keep)})
	c.held += weight
	for c.held > c.size {
		c.remove(c.order.Back())
	}
	return val
}

func (c *cache) remove(e *list.Element) {
	en := e.Value.(*entry)
	c.order.Remove(e)
	delete(c.byKey, en.key)
	c.held -= en.weight
}

// made returns how many values of kind the cache made.
func (c *cache) made(kind string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.work[kind]
}

func kindOf(key string) string {
	for i := range len(key) {
		if key[i] == 0 {
			return key[:i]
		}
	}
	return key
}
