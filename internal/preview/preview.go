// Package preview is serve.go's live preview: it watches lesson files and
// tells the pages open in browsers which lessons changed, so that they
// reload. It is for `go run serve.go` only; an exported site never loads
// it.
//
// Pages load /__gradbook/live.js (the build adds it when it builds for
// serve.go), which listens to /__gradbook/events, a stream of server-sent
// events. Each event's data is the file names, without .md, of the lessons
// that changed, separated by spaces.
package preview

import (
	"context"
	_ "embed"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

//go:embed live.js
var liveJS []byte

// Hub sends change events to every page that listens.
type Hub struct {
	mu   sync.Mutex
	subs map[chan string]bool
}

// Routes serves the script and the event stream on mux. The streams end
// when done closes (the server is shutting down).
func (h *Hub) Routes(mux *http.ServeMux, done <-chan struct{}) {
	mux.HandleFunc("/__gradbook/live.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(liveJS)
	})
	mux.HandleFunc("/__gradbook/events", func(w http.ResponseWriter, r *http.Request) {
		flusher, ok := w.(http.Flusher)
		if !ok {
			http.Error(w, "streaming unsupported", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		ch := h.subscribe()
		defer h.unsubscribe(ch)
		fmt.Fprint(w, ": live preview\n\n")
		flusher.Flush()
		for {
			select {
			case data := <-ch:
				fmt.Fprintf(w, "event: change\ndata: %s\n\n", data)
				flusher.Flush()
			case <-r.Context().Done():
				return
			case <-done:
				return
			}
		}
	})
}

func (h *Hub) subscribe() chan string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs == nil {
		h.subs = map[chan string]bool{}
	}
	ch := make(chan string, 8)
	h.subs[ch] = true
	return ch
}

func (h *Hub) unsubscribe(ch chan string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, ch)
}

// Publish tells every listening page which lessons changed.
func (h *Hub) Publish(slugs []string) {
	data := strings.Join(slugs, " ")
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- data:
		default: // a page that does not read is not waited for
		}
	}
}

// Listeners reports how many pages listen.
func (h *Hub) Listeners() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

type stamp struct {
	mod  time.Time
	size int64
}

// snapshot stamps every lesson file in dirs, by path.
func snapshot(dirs []string) map[string]stamp {
	m := map[string]stamp{}
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, "*.md"))
		for _, f := range files {
			if st, err := os.Stat(f); err == nil {
				m[f] = stamp{st.ModTime(), st.Size()}
			}
		}
	}
	return m
}

// Watch looks at the lesson files in dirs every interval until ctx ends,
// and calls changed with the lessons whose files were saved, added or
// removed since the last look.
func Watch(ctx context.Context, dirs []string, every time.Duration, changed func(slugs []string)) {
	last := snapshot(dirs)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := snapshot(dirs)
		set := map[string]bool{}
		for f, s := range now {
			if last[f] != s {
				set[f] = true
			}
		}
		for f := range last {
			if _, ok := now[f]; !ok {
				set[f] = true
			}
		}
		last = now
		if len(set) == 0 {
			continue
		}
		var slugs []string
		for f := range set {
			slugs = append(slugs, strings.TrimSuffix(filepath.Base(f), ".md"))
		}
		sort.Strings(slugs)
		changed(slugs)
	}
}
