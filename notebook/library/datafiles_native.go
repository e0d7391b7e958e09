//go:build !(js && wasm)

package library

import _ "embed"

//go:embed data/names.txt
var namesTxt string

//go:embed data/tinyshakespeare.txt
var shakespeareTxt string

//go:embed data/README.md
var dataReadme string

// DataReadme says where each data file comes from: the site build writes
// it beside them, as data/README.txt.
func DataReadme() string { return dataReadme }

// DataFile returns the embedded copy of the data file name (names.txt,
// tinyshakespeare.txt),
// which native runs read and the site build writes beside the pages; ok
// is false for a name that is no data file. Under WebAssembly there are
// none: the page hands the runner the files (runner.Job.Data).
func DataFile(name string) (text string, ok bool) {
	switch name {
	case "names.txt":
		return namesTxt, true
	case "tinyshakespeare.txt":
		return shakespeareTxt, true
	}
	return "", false
}

// DataFiles lists the data files' names, for the site build.
func DataFiles() []string { return []string{"names.txt", "tinyshakespeare.txt"} }
