//go:build js && wasm

package library

// DataFile reports that gradbook.wasm holds no data file: the page hands
// the runner the files its jobs need (runner.Job.Data), keeping the wasm
// small.
func DataFile(name string) (text string, ok bool) { return "", false }

// DataReadme is empty under WebAssembly: only the site build writes it.
func DataReadme() string { return "" }
