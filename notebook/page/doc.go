// Package page is the logic of a notebook page in plain Go, tested
// natively: what a cell shows after a run (Show, Outcome, Why), which
// cells a run takes (Chain, PlanRunAll), debounced saves (Debouncer),
// share links (ShareLink, ParseShare) and scratch cells' ids (NextID).
// Package web wires it to the DOM and keeps only the glue: reading and
// writing elements, js.Func callbacks, IndexedDB.
package page
