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

// embedded holds the embedded copy of each data file, by name.
var embedded = map[string]string{"names.txt": namesTxt, "tinyshakespeare.txt": shakespeareTxt}

// DataFile returns the embedded copy of the data file name (one of
// DataFiles), which native runs read and the site build writes beside
// the pages; ok is false for a name that is no data file. Under
// WebAssembly there are none: the page hands the runner the files
// (runner.Job.Data).
func DataFile(name string) (text string, ok bool) {
	text, ok = embedded[name]
	return text, ok
}
