// Package celltest runs cells of the whole cell language, as the page
// runs them, for the tests of the packages that make it up (package
// kernel's own tests run plain Starlark instead).
package celltest
