package kernels

import _ "embed"

//go:generate go run gen.go

// Module is kernels.wasm, the kernels built from kernels.c by gen.go. It
// is embedded in the programs that use it, so that no other file has to
// be fetched, kept offline by the service worker, proxied for course
// pages or listed in SCORM packages.
//
//go:embed kernels.wasm
var Module []byte
