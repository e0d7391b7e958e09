// Package preview is serve.go's live preview: it watches lesson files and
// tells the pages open in browsers which lessons changed, so that they
// reload. It is for `go run serve.go` only; an exported site never loads
// it.
//
// Pages load /__gradbook/live.js (the build adds it when it builds for
// serve.go), which listens to /__gradbook/events, a stream of server-sent
// events. Each event's data is the file names, without .md, of the lessons
// that changed, separated by spaces ("*" for all). The page says which
// generation of the pages it is (?since=N): events it missed while it
// loaded come first.
package preview

import (
	"context"
	_ "embed"
	"fmt"
	"hash/fnv"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed live.js
var liveJS []byte

// Hub sends change events to every page that listens. Each build of the
// pages has a generation, starting at 1; a page is built knowing its own
// (Gen, then Next), and asks for the events since then when it starts
// listening, so that a lesson saved while the page was loading is not
// missed.
type Hub struct {
	mu   sync.Mutex
	subs map[chan string]bool
	gen  int
	log  []change // the latest changes, oldest first
}

// change is one rebuild: its generation and the lessons it was for.
type change struct {
	gen   int
	slugs []string
}

// maxLog is how many changes a Hub remembers for pages that start
// listening late; a page further behind reloads.
const maxLog = 64

// Gen is the generation of the pages built last: 1 before any change.
func (h *Hub) Gen() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.gen + 1
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
		since, err := strconv.Atoi(r.URL.Query().Get("since"))
		if err != nil {
			since = 0
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		ch, missed := h.subscribe(since)
		defer h.unsubscribe(ch)
		fmt.Fprint(w, ": live preview\n\n")
		if missed != "" {
			fmt.Fprintf(w, "event: change\ndata: %s\n\n", missed)
		}
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

// subscribe listens for changes, and returns the lessons that changed
// after generation since ("*" for every lesson, if the Hub no longer
// knows).
func (h *Hub) subscribe(since int) (chan string, string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs == nil {
		h.subs = map[chan string]bool{}
	}
	ch := make(chan string, 8)
	h.subs[ch] = true
	if since <= 0 || since > h.gen {
		return ch, ""
	}
	if len(h.log) > 0 && h.log[0].gen > since+1 {
		return ch, "*"
	}
	var missed []string
	for _, c := range h.log {
		if c.gen > since {
			missed = append(missed, c.slugs...)
		}
	}
	return ch, strings.Join(missed, " ")
}

func (h *Hub) unsubscribe(ch chan string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, ch)
}

// Publish tells every listening page which lessons changed, once the
// pages of the next generation are built.
func (h *Hub) Publish(slugs []string) {
	data := strings.Join(slugs, " ")
	h.mu.Lock()
	defer h.mu.Unlock()
	h.gen++
	h.log = append(h.log, change{h.gen + 1, slugs})
	if len(h.log) > maxLog {
		h.log = h.log[1:]
	}
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

// Watcher looks for saved, added and removed lesson files.
type Watcher struct {
	dirs []string
	last map[string]uint64 // the files as last reported, by path
	seen map[string]uint64 // the files as the last look found them
}

// NewWatcher reads the lesson files in dirs now: changes from now on are
// seen.
func NewWatcher(dirs ...string) *Watcher {
	now := snapshot(dirs)
	return &Watcher{dirs: dirs, last: maps.Clone(now), seen: now}
}

// snapshot hashes every lesson file in dirs, by path: a save is seen
// even when it keeps the file's size and falls in its time stamp's tick.
func snapshot(dirs []string) map[string]uint64 {
	m := map[string]uint64{}
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, "*.md"))
		for _, f := range files {
			// Regular files only: a FIFO would never end the read.
			if st, err := os.Lstat(f); err != nil || !st.Mode().IsRegular() {
				continue
			}
			if b, err := os.ReadFile(f); err == nil {
				h := fnv.New64a()
				h.Write(b)
				m[f] = h.Sum64()
			}
		}
	}
	return m
}

// Run looks at the lesson files every interval until ctx ends, and calls
// changed with the lessons whose files were saved, added or removed since
// the last look.
func (w *Watcher) Run(ctx context.Context, every time.Duration, changed func(slugs []string)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if slugs := w.look(); len(slugs) > 0 {
			changed(slugs)
		}
	}
}

// look reads the lesson files and returns the lessons whose files have
// changed since they were last reported, and have settled: the look before
// found them as they are now. A save that an editor writes in place
// (truncating the file, then writing it) can be caught half done; that
// file is reported once, whole, a look later, not twice.
func (w *Watcher) look() []string {
	now := snapshot(w.dirs)
	var slugs []string
	for _, files := range []map[string]uint64{now, w.last} {
		for f := range files {
			h, ok := now[f]
			if was, wasOK := w.last[f]; ok == wasOK && h == was {
				continue // as reported
			}
			if before, beforeOK := w.seen[f]; ok != beforeOK || h != before {
				continue // still changing
			}
			if ok {
				w.last[f] = h
			} else {
				delete(w.last, f)
			}
			slugs = append(slugs, strings.TrimSuffix(filepath.Base(f), ".md"))
		}
	}
	w.seen = now
	sort.Strings(slugs)
	return slugs
}
