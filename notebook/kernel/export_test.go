package kernel

import "go.starlark.net/syntax"

// ParseAsStarlark parses src as the cells' dialect without @ and
// subscripts of several axes: Starlark's parser alone.
func ParseAsStarlark(name, src string) (*syntax.File, error) { return fileOptions.Parse(name, src, 0) }
