package draw

// This file holds groups: the paths nodes carry, the groups a drawing
// makes when it is given none, and folding them into one box each.

import (
	"fmt"
	"slices"
	"strings"
)

// group is a set of nodes that share a prefix of their group paths.
type group struct {
	key     string // the path so far, joined by " › "
	name    string // its last element
	depth   int    // 0 for an outermost group
	members []int  // in slot order
	out     int    // the member whose value and gradient the folded box shows
	parent  *group // the group it is in, or nil
}

// groupKey joins a group path into the key of its group.
func groupKey(path []string) string { return strings.Join(path, " › ") }

// activations are the ops that end a group made without given groups: a
// neuron is a weighted sum and its activation.
var activations = map[string]bool{"tanh": true, "relu": true, "sigmoid": true}

// fallbackGroups groups the nodes when the caller gave no groups: each
// head (the output, every activation, every value used more than once or
// not at all) with the values that only it uses, directly or through
// others, such as a neuron's weighted sum and its weights. A group must
// have at least 3 values and no more than half of the drawing, so that
// folding it still leaves a graph to look at.
func (d *Drawing) fallbackGroups() {
	n := len(d.Nodes)
	uses := make([]int, n)
	user := make([]int, n)
	for _, e := range d.Edges {
		uses[e.From]++
		user[e.From] = e.To
	}
	owner := make([]int, n)
	size := make([]int, n)
	for s := n - 1; s >= 0; s-- {
		nd := d.Nodes[s]
		head := nd.Op != "" && (s == d.Out || activations[nd.Op] || uses[s] != 1)
		switch {
		case head:
			owner[s] = s
		case uses[s] == 1:
			owner[s] = owner[user[s]]
		default:
			owner[s] = -1
		}
		if owner[s] >= 0 {
			size[owner[s]]++
		}
	}
	name := d.headNames(owner, size)
	for s := range d.Nodes {
		h := owner[s]
		if h >= 0 && size[h] >= 3 && 2*size[h] <= n {
			d.Nodes[s].Group = []string{name[h]}
		}
	}
	d.nameParameters(owner, name)
}

// nameParameters names the leaves of each neuron that the program left
// unnamed (a weight or bias made as Value(0.3)), which would otherwise be
// called by their numbers in titles, the Paths menu and its paths: the
// leaf multiplied in the neuron's k-th product is its weight "wk", one
// added is its bias "b" ("L1 neuron 2 · w3").
func (d *Drawing) nameParameters(owner []int, name []string) {
	if d.unnamed == nil {
		return
	}
	ins := make([][]int, len(d.Nodes))
	for _, e := range d.Edges {
		ins[e.To] = append(ins[e.To], e.From)
	}
	products := map[int]int{} // a neuron's products so far
	role := make([]string, len(d.Nodes))
	for s, nd := range d.Nodes { // in slot order: inputs before their users
		h := owner[s]
		if h < 0 || len(nd.Group) == 0 || !activations[d.Nodes[h].Op] || d.Nodes[h].Label != d.Nodes[h].Op {
			continue // not in a neuron named by fallbackGroups
		}
		if nd.Op == "mul" {
			products[h]++
		}
		for _, in := range ins[s] {
			if !d.unnamed[in] || d.Nodes[in].Const || owner[in] != h || role[in] != "" {
				continue
			}
			switch nd.Op {
			case "mul":
				role[in] = fmt.Sprintf("w%d", products[h])
			case "add":
				role[in] = "b"
			}
		}
	}
	for s, r := range role {
		if r != "" {
			d.Nodes[s].Name = name[owner[s]] + " · " + r
			d.Nodes[s].Label = r
		}
	}
}

// headNames names the groups fallbackGroups makes after their heads. A
// head the program labelled keeps its label; an activation nobody named
// is a neuron, named by its layer (how many activations lie on the
// longest path from an input to it, itself included) and its place in
// that layer: "L2 neuron 3". Any other head keeps its node's name.
func (d *Drawing) headNames(owner, size []int) []string {
	n := len(d.Nodes)
	layer := make([]int, n)
	ins := make([][]int, n)
	for _, e := range d.Edges {
		ins[e.To] = append(ins[e.To], e.From)
	}
	for s := range layer { // a node's inputs have lower slots
		for _, in := range ins[s] {
			layer[s] = max(layer[s], layer[in])
		}
		if activations[d.Nodes[s].Op] {
			layer[s]++
		}
	}
	names := make([]string, n)
	count := map[int]int{}
	for s, nd := range d.Nodes {
		if owner[s] != s || size[s] < 3 {
			continue
		}
		names[s] = nd.Name
		if activations[nd.Op] && nd.Label == nd.Op {
			count[layer[s]]++
			names[s] = fmt.Sprintf("L%d neuron %d", layer[s], count[layer[s]])
		}
	}
	return names
}

// collectGroups makes the groups from the nodes' paths: outermost first,
// then in order of their first member.
func (d *Drawing) collectGroups() {
	d.groups, d.byKey = nil, map[string]*group{}
	inGroup := make([]map[string]bool, len(d.Nodes))
	for s, nd := range d.Nodes {
		for i := range nd.Group {
			key := groupKey(nd.Group[:i+1])
			g := d.byKey[key]
			if g == nil {
				g = &group{key: key, name: nd.Group[i], depth: i}
				if i > 0 {
					g.parent = d.byKey[groupKey(nd.Group[:i])]
				}
				d.byKey[key] = g
				d.groups = append(d.groups, g)
			}
			g.members = append(g.members, s)
			if inGroup[s] == nil {
				inGroup[s] = map[string]bool{}
			}
			inGroup[s][key] = true
		}
	}
	// A folded box shows the last member that a value outside uses, or,
	// if none is used outside, its last member.
	for _, g := range d.groups {
		g.out = g.members[len(g.members)-1]
		leaving := -1
		for _, e := range d.Edges {
			if inGroup[e.From][g.key] && !inGroup[e.To][g.key] {
				leaving = max(leaving, e.From)
			}
		}
		if leaving >= 0 {
			g.out = leaving
		}
	}
	slices.SortStableFunc(d.groups, func(a, b *group) int { return a.depth - b.depth })
}

// Groups returns the keys of the drawing's groups, outermost first: the
// values View.Expanded takes. A key is the group's path joined by " › ".
func (d *Drawing) Groups() []string {
	d.ready()
	keys := make([]string, len(d.groups))
	for i, g := range d.groups {
		keys[i] = g.key
	}
	return keys
}

// Folds reports whether the drawing starts folded: it has more than
// FoldAbove values and groups to fold them into.
func (d *Drawing) Folds() bool {
	d.ready()
	return d.folds
}

// openGroups returns the groups of expanded that d has, with the groups
// they are in, sorted; for a drawing that does not fold, every group.
func (d *Drawing) openGroups(expanded []string) []string {
	if !d.folds {
		return d.Groups()
	}
	var open []string
	for _, k := range expanded {
		for g := d.byKey[k]; g != nil; g = g.parent {
			if !slices.Contains(open, g.key) {
				open = append(open, g.key)
			}
		}
	}
	slices.Sort(open)
	return open
}

// foldedGroup returns the outermost folded group of node s, or nil if s is
// drawn as itself.
func (d *Drawing) foldedGroup(s int, open map[string]bool) *group {
	path := d.Nodes[s].Group
	for i := range path {
		if key := groupKey(path[:i+1]); !open[key] {
			return d.byKey[key]
		}
	}
	return nil
}
