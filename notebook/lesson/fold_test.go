package lesson

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// What a prediction folds (up to the next heading) stays out of the rest
// of the lesson: no number of four decimals or more that the folded part
// is the first to show (a cell's check, its prose) is written below it
// outside a fold, where a learner can read it before predicting (A
// derivative is a nudge once stated its step's −7.286496 in its Key
// points).
func TestPredictionsAnswersStayFolded(t *testing.T) {
	files, err := filepath.Glob("../../site/lessons/*.md")
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	number := regexp.MustCompile(`\d+\.\d{4,}`)
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// Each line is before the first fold, in a fold, or open below one.
		var before, folded, below []string
		in, code := false, false
		for _, line := range strings.Split(string(b), "\n") {
			switch {
			case strings.HasPrefix(line, "```"):
				code = !code
				if strings.HasPrefix(line, "```quiz ") && strings.HasSuffix(strings.TrimSpace(line), " predict") {
					in = true
				}
			case strings.HasPrefix(line, "#") && !code:
				in = false // a heading ends a fold
			}
			switch {
			case in:
				folded = append(folded, line)
			case len(folded) == 0:
				before = append(before, line)
			default:
				below = append(below, line)
			}
		}
		known, open := strings.Join(before, "\n"), strings.Join(below, "\n")
		for _, n := range number.FindAllString(strings.Join(folded, "\n"), -1) {
			if !strings.Contains(known, n) && strings.Contains(open, n) {
				t.Errorf("%s: %s, which a prediction folds, is written below it outside the fold", filepath.Base(file), n)
			}
		}
	}
}
