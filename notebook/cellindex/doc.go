// Package cellindex is cells.json, the index of every lesson's code cells
// by id, so that a course page can embed a lesson's cell by reference:
// the lesson build writes it (Index.JSON) and the page reads it (Parse).
// It knows nothing of running cells, so the page reads it without
// Starlark.
package cellindex
