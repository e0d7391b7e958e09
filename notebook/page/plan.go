package page

// Member is a cell as a run sees it: the group of cells it runs after
// (the cells above it in its group), the hidden cells that come first
// (the cells above it in its lesson, for a cell embedded alone), and its
// source now.
type Member struct {
	Group  string
	Prefix []string
	Source string
}

// Chain returns the sources cell i runs after, its own last, and the
// page's indexes of the cells among them (the prefix has none).
func Chain(cells []Member, i int) (srcs []string, members []int) {
	c := cells[i]
	srcs = append(srcs, c.Prefix...)
	for k, d := range cells {
		if d.Group != c.Group {
			continue
		}
		srcs = append(srcs, d.Source)
		members = append(members, k)
		if k == i {
			break
		}
	}
	return srcs, members
}

// Batch is one run of Run all: the sources of a group, up to its last cell,
// the page's cells they are, and how many hidden sources come first.
type Batch struct {
	Srcs    []string
	Members []int
	Skip    int
}

// PlanRunAll plans Run all: one batch per group of cells, in the order the
// groups first appear on the page, each running the whole group.
func PlanRunAll(cells []Member) []Batch {
	var batches []Batch
	done := map[string]bool{}
	for _, c := range cells {
		if done[c.Group] {
			continue
		}
		done[c.Group] = true
		last := 0
		for k, d := range cells {
			if d.Group == c.Group {
				last = k
			}
		}
		srcs, members := Chain(cells, last)
		batches = append(batches, Batch{Srcs: srcs, Members: members, Skip: len(cells[last].Prefix)})
	}
	return batches
}
