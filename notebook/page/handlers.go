package page

// handlers owns the event listeners of one part of the page: the page
// itself, a cell, the drawings under a cell, a box that asks a question.
// When that part goes or is replaced, release removes its listeners, so
// that running a cell again does not pile them up.
type handlers struct {
	stops []func()
	// after are what else to undo when the part goes (an editor to
	// destroy, a drawing to forget).
	after []func()
}

// listen calls f for every typ event on el, guarded by p, until release.
func (h *handlers) listen(p *Page, el Node, typ string, f func(Event)) {
	h.add(el.Listen(typ, p.guard(f)))
}

// add keeps stop, to call on release.
func (h *handlers) add(stop func()) { h.stops = append(h.stops, stop) }

// release removes every listener and undoes what else was kept.
func (h *handlers) release() {
	for _, f := range h.after {
		f()
	}
	for _, stop := range h.stops {
		stop()
	}
	h.stops, h.after = nil, nil
}
