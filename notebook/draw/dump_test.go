package draw_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gradbook/engine"
	"gradbook/notebook/draw"
)

// TestDumpSVG writes every lesson drawing to $DRAW_DUMP, for looking at.
func TestDumpSVG(t *testing.T) {
	dir := os.Getenv("DRAW_DUMP")
	if dir == "" {
		t.Skip("set DRAW_DUMP to a folder")
	}
	for _, ld := range lessonDrawings(t) {
		name := strings.ReplaceAll(ld.name, "/", "_")
		for suffix, v := range map[string]draw.View{"": {ID: "g"}, "-v": {ID: "g", Vertical: true}, "-o": {ID: "g", Bug: engine.OverwriteBug, Step: 2}, "-x": {ID: "g", Expanded: ld.d.Groups()}} {
			os.WriteFile(filepath.Join(dir, name+suffix+".svg"), []byte(ld.d.SVG(v)), 0o644)
		}
	}
}
