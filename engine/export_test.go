package engine

// TableOrder returns the names of the op table's ops in the table's
// order, for the tests outside the package.
func TableOrder() []string {
	names := make([]string, len(ops))
	for i, o := range ops {
		names[i] = o.name
	}
	return names
}
