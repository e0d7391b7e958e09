package preview

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Saving, adding and removing lesson files are each seen, by lesson.
func TestWatch(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.md")
	if err := os.WriteFile(a, []byte("# A"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := NewWatcher(dir) // changes are seen from here on
	go w.Run(ctx, 10*time.Millisecond, func(slugs []string) { got <- strings.Join(slugs, " ") })
	expect := func(what, want string) {
		t.Helper()
		select {
		case g := <-got:
			if g != want {
				t.Errorf("%s: got %q, want %q", what, g, want)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("%s: nothing seen", what)
		}
	}
	os.WriteFile(a, []byte("# A, longer"), 0o644)
	expect("a save", "a")
	os.WriteFile(a, []byte("# A, LONGER"), 0o644) // the same size, at once
	expect("a save of the same size", "a")
	os.WriteFile(filepath.Join(dir, "b.md"), []byte("# B"), 0o644)
	expect("a new file", "b")
	os.Remove(a)
	expect("a removed file", "a")
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	select {
	case g := <-got:
		t.Errorf("a file that is not a lesson was seen: %q", g)
	case <-time.After(100 * time.Millisecond):
	}
}

// A save caught half done (an editor truncates the file, then writes it)
// is not reported: the file is, once, when a look finds it as the look
// before did. So is a removal.
func TestWatchReportsSettledFiles(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.md")
	if err := os.WriteFile(a, []byte("# A"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := NewWatcher(dir)
	for _, step := range []struct {
		what string
		do   func() error
		want string
	}{
		{"nothing changed", func() error { return nil }, ""},
		{"truncated", func() error { return os.WriteFile(a, nil, 0o644) }, ""},
		{"written", func() error { return os.WriteFile(a, []byte("# A, longer"), 0o644) }, ""},
		{"settled", func() error { return nil }, "a"},
		{"settled still", func() error { return nil }, ""},
		{"removed", func() error { return os.Remove(a) }, ""},
		{"gone", func() error { return nil }, "a"},
		{"written back as it was", func() error { return os.WriteFile(a, []byte("# A"), 0o644) }, ""},
		{"back", func() error { return nil }, "a"},
	} {
		if err := step.do(); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(w.look(), " "); got != step.want {
			t.Errorf("%s: reported %q, want %q", step.what, got, step.want)
		}
	}
}

// serveHub serves a Hub's routes until the test ends.
func serveHub(t *testing.T) (*Hub, *httptest.Server) {
	h := new(Hub)
	mux := http.NewServeMux()
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	h.Routes(mux, done)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return h, srv
}

// A page listening to the event stream hears which lessons changed.
func TestHub(t *testing.T) {
	h, srv := serveHub(t)
	res, err := http.Get(srv.URL + "/__gradbook/live.js")
	if err != nil || res.StatusCode != 200 || !strings.Contains(res.Header.Get("Content-Type"), "javascript") {
		t.Fatalf("live.js: %v %v", res, err)
	}
	res.Body.Close()
	res, err = http.Get(srv.URL + "/__gradbook/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	r := bufio.NewReader(res.Body)
	r.ReadString('\n') // the greeting
	for h.Listeners() == 0 {
		time.Sleep(time.Millisecond)
	}
	h.Publish([]string{"intro", "two"})
	var lines []string
	for len(lines) < 2 {
		l, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if lines[0] != "event: change" || lines[1] != "data: intro two" {
		t.Errorf("got %q", lines)
	}
}

// A page that starts listening after a change it missed (it was loading)
// hears it first; a page of the latest build hears nothing old.
func TestHubTellsLatePages(t *testing.T) {
	h, srv := serveHub(t)
	first := h.Gen()
	h.Publish([]string{"intro"})
	h.Publish([]string{"two"})
	if h.Gen() != first+2 {
		t.Fatalf("generation %d after two changes from %d", h.Gen(), first)
	}
	read := func(since int) string {
		t.Helper()
		res, err := http.Get(srv.URL + "/__gradbook/events?since=" + strconv.Itoa(since))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		r := bufio.NewReader(res.Body)
		r.ReadString('\n') // the greeting
		r.ReadString('\n')
		go func() {
			for h.Listeners() == 0 {
				time.Sleep(time.Millisecond)
			}
			h.mu.Lock()
			for ch := range h.subs {
				ch <- "(now)"
			}
			h.mu.Unlock()
		}()
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if data, ok := strings.CutPrefix(strings.TrimSpace(l), "data: "); ok {
				return data
			}
		}
	}
	if got := read(first); got != "intro two" {
		t.Errorf("a page of the first build hears %q first", got)
	}
	if got := read(first + 1); got != "two" {
		t.Errorf("a page of the second build hears %q first", got)
	}
	if got := read(h.Gen()); got != "(now)" {
		t.Errorf("a page of the latest build hears %q first", got)
	}
}
