package telegram_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/boardgamebot/bot/adapters/telegram"
	"github.com/boardgamebot/bot/sessions"
)

// problemOf returns the place problem of a CheckPlaces or OpenPlace
// error, "" for nil; it fails the test for an error of another kind.
func problemOf(t *testing.T, err error) sessions.PlaceProblem {
	t.Helper()
	if err == nil {
		return ""
	}
	var nv *sessions.NoPlaces
	if !errors.Is(err, sessions.ErrNoPlaces) || !errors.As(err, &nv) || sessions.KindOf(err) != sessions.ErrNoPlaces {
		t.Fatalf("error %v is not an ErrNoVenues *sessions.Error with a *NoVenues", err)
	}
	return nv.Problem
}

func keyOf(chatID int64) sessions.Key {
	return sessions.Key{Platform: telegram.Platform, Channel: strconv.FormatInt(chatID, 10)}
}

// TestCheckPlaces: games can be opened only in a forum where the bot may
// manage topics; elsewhere the reason is given as a value.
func TestCheckPlaces(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	v := h.bot.Places()
	ctx := context.Background()
	const (
		plain      int64 = -1005001
		noAdmin    int64 = -1005002
		noTopics   int64 = -1005003
		admin      int64 = -1005004
		botIsOwner int64 = -1005005
	)
	f.setMember(plain, botID, "administrator", "can_manage_chat", "can_manage_topics")
	for _, id := range []int64{noAdmin, noTopics, admin, botIsOwner} {
		f.setForum(id, true)
	}
	f.setMember(noTopics, botID, "administrator", "can_manage_chat", "can_delete_messages")
	f.setMember(admin, botID, "administrator", "can_manage_chat", "can_manage_topics")
	f.setMember(botIsOwner, botID, "creator")
	for _, tc := range []struct {
		name string
		key  sessions.Key
		want sessions.PlaceProblem
	}{
		{"plain group", keyOf(plain), sessions.PlaceNotForum},
		{"private chat", keyOf(alice.id), sessions.PlaceNotForum},
		{"forum, bot not admin", keyOf(noAdmin), sessions.PlaceNoRights},
		{"forum, admin without topics", keyOf(noTopics), sessions.PlaceNoRights},
		{"forum, admin with topics", keyOf(admin), ""},
		{"forum, from a topic", sessions.Key{Platform: telegram.Platform, Channel: strconv.FormatInt(admin, 10), Thread: "12"}, ""},
		{"forum, bot owns it", keyOf(botIsOwner), ""},
		{"another platform", sessions.Key{Platform: "discord", Channel: "1"}, sessions.PlaceNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := problemOf(t, v.CheckPlaces(ctx, tc.key)); got != tc.want {
				t.Errorf("CheckVenues(%v) = %q, want %q", tc.key, got, tc.want)
			}
		})
	}

	// A failed call is not a reason: it is no ErrNoPlaces.
	f.breakNext("getChat", http.StatusBadRequest)
	if err := v.CheckPlaces(ctx, keyOf(admin)); err == nil || errors.Is(err, sessions.ErrNoPlaces) {
		t.Errorf("CheckVenues with getChat failing = %v, want a plain error", err)
	}
}

// TestOpenPlace: a game's place is a new forum topic named after the round
// and the players, and the bot's posts for its key go into that topic.
func TestOpenPlace(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	v := h.bot.Places()
	ctx := context.Background()
	const forum int64 = -1005010
	f.setForum(forum, true)
	f.setMember(forum, botID, "administrator", "can_manage_chat", "can_manage_topics")
	tour := &sessions.Tournament{ID: "4", Key: sessions.Key{Platform: telegram.Platform, Channel: strconv.FormatInt(forum, 10), Thread: "3"}}

	game := func(round int, white, black sessions.User) sessions.PlaceGame {
		return sessions.PlaceGame{Tournament: tour, Round: round, White: white, Black: black}
	}
	key, err := v.OpenPlace(ctx, game(2, alice.sessionUser(), bob.sessionUser()))
	if err != nil {
		t.Fatal(err)
	}
	topics := f.topicsOf(forum)
	if len(topics) != 1 || topics[0].name != "#4 · Round 2: alice – bob" {
		t.Fatalf("topics created: %+v, want one named %q", topics, "#4 · Round 2: alice – bob")
	}

	// A name too long for Telegram is cut to 128 characters.
	long := sessions.User{ID: "77", Name: strings.Repeat("ж", 100)}
	if _, err := v.OpenPlace(ctx, game(3, long, long)); err != nil {
		t.Fatal(err)
	}
	if name := f.topicsOf(forum)[1].name; utf8.RuneCountInString(name) != 128 || !strings.HasPrefix(name, "#4 · Round 3: жж") {
		t.Errorf("a long topic name became %q (%d characters)", name, utf8.RuneCountInString(name))
	}
	want := sessions.Key{Platform: telegram.Platform, Channel: tour.Key.Channel, Thread: strconv.Itoa(topics[0].id)}
	if key != want {
		t.Errorf("OpenVenue = %v, want %v", key, want)
	}

	// A game played at the key is answered in the topic.
	m := f.mark()
	up := text(forum, alice, "/play spanish @bob")
	msg := up["message"].(map[string]any)
	msg["message_thread_id"], msg["is_topic_message"] = topics[0].id, true
	f.push(up)
	c, _ := f.waitCall(m, sent(forum, "sendMessage"))
	if c.Params["message_thread_id"] != key.Thread {
		t.Errorf("the answer in the game's topic went to thread %q", c.Params["message_thread_id"])
	}
	if s, err := h.svc.Look(ctx, key); err != nil || s == nil {
		t.Errorf("no session at the venue's key %v: %v", key, err)
	}

	// Rights taken away since: the refusal says so.
	f.setMember(forum, botID, "member")
	_, err = v.OpenPlace(ctx, game(2, carol.sessionUser(), bob.sessionUser()))
	var nv *sessions.NoPlaces
	if problemOf(t, err) != sessions.PlaceNoRights || !errors.As(err, &nv) || nv.Right != sessions.RightManageTopics {
		t.Errorf("OpenVenue without rights = %v, want VenueNoRights naming the right to manage topics", err)
	}
	if n := len(f.topicsOf(forum)); n != 2 {
		t.Errorf("%d topics after the refusal, want 2", n)
	}
}
