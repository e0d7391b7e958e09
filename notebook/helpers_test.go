package notebook

import (
	"fmt"
	"sort"
	"strings"

	"gradbook/engine"
)

func graphLiteral(g engine.Graph) string {
	var b strings.Builder
	b.WriteString("[")
	for _, n := range g {
		fmt.Fprintf(&b, "[%q, %q, [", n.Name, n.Op)
		for i, in := range n.Inputs {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q", in)
		}
		b.WriteString("]")
		if n.Op == "pow" {
			fmt.Fprintf(&b, ", %v", n.K)
		}
		b.WriteString("], ")
	}
	b.WriteString("]")
	return b.String()
}

func leavesLiteral(m map[string]float64) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("{")
	for _, k := range keys {
		fmt.Fprintf(&b, "%q: %v, ", k, m[k])
	}
	b.WriteString("}")
	return b.String()
}
