package page

import (
	"fmt"
	"strconv"
	"strings"
)

// ScratchID is the id of the scratch cell numbered n.
func ScratchID(n int) string { return fmt.Sprintf("scratch-%d", n) }

// NextID is the number the next new scratch cell takes, after the cells
// with ids: one more than the largest, or n+1 for n cells if that is
// larger. Ids are data (stored, imported): one that is not scratch-N for a
// reasonable N is skipped, so that the next id stays a small positive
// number.
func NextID(ids []string, n int) int {
	next := n + 1
	for _, id := range ids {
		s, ok := strings.CutPrefix(id, "scratch-")
		if !ok {
			continue
		}
		k, err := strconv.Atoi(s)
		if err == nil && k > 0 && k < MaxScratchID && k >= next {
			next = k + 1
		}
	}
	return next
}

// MaxScratchID bounds the numbers of scratch ids NextID follows.
const MaxScratchID = 1 << 30
