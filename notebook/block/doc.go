// Package block holds the kinds of block a lesson can contain besides
// prose, and all the markup of cells: code cells (CodeCellHTML), quizzes,
// explore blocks and exercises. Each kind is parsed from the text of a
// fenced block (sections divided by "--- name args" lines, see Section)
// and rendered to HTML at build time; the data the browser needs travels
// with the markup once, as JSON in an inert <script
// type="application/json" class="block-data"> (ExploreOf reads an explore
// block's back; a numeric quiz's expected answers are computed here, once).
//
// A new block kind is a Parse function and an HTML method here, one line
// in package lesson's kinds table, and its wiring in package web.
package block
