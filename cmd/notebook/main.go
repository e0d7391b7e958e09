//go:build js && wasm

// Command notebook is the notebook's WebAssembly: site/notebook.js starts
// it on every lesson page and on the scratch page.
package main

import "gradbook/notebook/web"

func main() {
	web.Run()
	select {} // handlers run for as long as the page lives
}
