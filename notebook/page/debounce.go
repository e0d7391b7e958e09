package page

import (
	"sync"
	"time"
)

// Debouncer runs saves after a pause: typing saves when it stops, once.
// A save waiting under a key is replaced by the next one under the same
// key; Flush runs every waiting save at once and waits for those under
// way, before a run that might never come back or when the page goes.
type Debouncer struct {
	delay  time.Duration
	clock  Clock
	mu     sync.Mutex             // guards timers and fns
	timers map[string]func() bool // each waiting save's timer's stop
	fns    map[string]func()
	saving sync.WaitGroup // the saves under way
	run    func(func())   // how a save is run: safely, on the page
}

// NewDebouncer returns a Debouncer that waits delay on clock after the
// last change under a key; run runs each save (nil: call it).
func NewDebouncer(delay time.Duration, clock Clock, run func(func())) *Debouncer {
	if run == nil {
		run = func(f func()) { f() }
	}
	return &Debouncer{delay: delay, clock: clock, timers: map[string]func() bool{}, fns: map[string]func(){}, run: run}
}

// Later runs f once the changes under key pause for the delay, unless a
// later change under key replaces it first.
func (d *Debouncer) Later(key string, f func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if stop := d.timers[key]; stop != nil {
		stop()
	}
	d.timers[key] = d.clock.AfterFunc(d.delay, func() { d.save(key) })
	d.fns[key] = f
}

// save runs the save waiting under key, if it is still waiting: from its
// timer or from Flush, whichever comes first, and once.
func (d *Debouncer) save(key string) {
	d.mu.Lock()
	f, ok := d.fns[key]
	if ok {
		delete(d.fns, key)
		if stop := d.timers[key]; stop != nil {
			stop()
		}
		delete(d.timers, key)
		d.saving.Add(1)
	}
	d.mu.Unlock()
	if ok {
		defer d.saving.Done()
		d.run(f)
	}
}

// Flush runs every save still waiting, and waits for the saves under way.
func (d *Debouncer) Flush() {
	d.mu.Lock()
	keys := make([]string, 0, len(d.fns))
	for key := range d.fns {
		keys = append(keys, key)
	}
	d.mu.Unlock()
	for _, key := range keys {
		d.save(key)
	}
	d.saving.Wait()
}

// Waiting reports whether a save is waiting for a pause.
func (d *Debouncer) Waiting() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.fns) > 0
}
