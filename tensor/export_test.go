package tensor

// OpNames returns the name of every op of the table, for the tests.
func OpNames() []string {
	names := make([]string, len(ops))
	for i, o := range ops {
		names[i] = o.name
	}
	return names
}
