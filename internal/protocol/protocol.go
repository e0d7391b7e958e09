// Package protocol declares, once, what Gradbook's scripts say to each
// other across JavaScript's boundaries: the messages between the page,
// the runner's Web Worker, the proxy frame, Gradbook's frames on a course
// page, and the service worker, and the globals they share. Go code
// builds and reads messages with these names; a native test
// (protocol_test.go) reads every script of the site and fails on a
// message, a field or a global that is not declared here, so that a
// rename breaks `go test`, not a browser.
//
// Every message is one plain object whose "gradbook" key names its kind,
// with the fields Messages lists for it.
//
// The engine's Web Worker (autodiff-worker.js) keeps the public shapes
// the README documents, {graph, leaves, out} in and {values, grads} or
// {error} out.
package protocol

// Key is the key that names a message's kind.
const Key = "gradbook"

// The kinds of message.
const (
	Module     = "module"
	Ready      = "ready"
	Died       = "died"
	Job        = "job"
	Lines      = "lines"
	Started    = "started"
	Result     = "result"
	Error      = "error"
	Fetch      = "fetch"
	ProxyReady = "proxy-ready"
	File       = "file"
	Height     = "height"
	SizeMe     = "size-me"
	Activate   = "activate"
)

// The fields that Go reads or writes.
const (
	FieldID     = "id"
	FieldJob    = "job"
	FieldLines  = "lines"
	FieldCell   = "cell"
	FieldResult = "result"
	FieldError  = "error"
)

// Message is one kind of message: who sends it to whom, its fields, and
// what it says.
type Message struct {
	Kind     string
	From, To string
	Fields   []string
	Says     string
}

// Messages are every kind of message.
var Messages = []Message{
	{Module, "page", "runner", []string{"module"}, "start: the compiled notebook"},
	{Ready, "runner", "page", []string{"kernels"}, "its Go program runs; what computes matrix products"},
	{Died, "runner", "page", []string{"why"}, "its Go program died"},
	{Job, "page", "runner", []string{FieldID, FieldJob}, "a job (runner.Job)"},
	{Lines, "runner", "page", []string{FieldID, FieldLines}, "lines printed: [[cell, text], …]"},
	{Started, "runner", "page", []string{FieldID, FieldCell}, "the job's cell begins to run"},
	{Result, "runner", "page", []string{FieldID, FieldResult}, "the job's runner.Result"},
	{Error, "runner", "page", []string{FieldID, FieldError}, "the job failed: a message"},
	{Fetch, "course page", "proxy frame", []string{"id", "file"}, "fetch one of Gradbook's files"},
	{ProxyReady, "proxy frame", "course page", nil, "the frame listens"},
	{File, "proxy frame", "course page", []string{"id", "status", "type", "body", "error"}, "the file, or why not"},
	{SizeMe, "course page", "Gradbook frame", []string{"nonce"}, "embed.js asks a frame for its height (nothing is told a parent that did not ask)"},
	{Height, "Gradbook frame", "course page", []string{"height", "nonce"}, "size me to my content: the nonce the parent's size-me gave"},
	{Activate, "page", "service worker", nil, "take the new build"},
}

// Global is a name one script sets on the global object for others.
type Global struct {
	Name  string
	SetBy string
	Doc   string
}

// Globals are every global Gradbook's scripts share.
var Globals = []Global{
	{"autodiff", "autodiff.js", "the engine's public JavaScript API: evaluate, backward, ready"},
	{"autodiffCore", "engine.wasm", "what the engine's wasm tells autodiff.js: maxNodes, headerWords"},
	{"gradbookRunners", "gradbook.js", "on a page: start(onmessage, ondied) starts a runner in a Web Worker; kernels, what computes matrix products in the last one that started"},
	{"gradbookRunner", "runner.js", "in the runner's worker: ready(handle), which its Go program calls; memory, the program's WebAssembly memory, into which it compiles its kernels; kernels, which the program sets to what computes matrix products"},
	{"gradbookEditor", "gradbook.js", "on a page: a promise of the code editor's module (editor.js), or of null"},
	{"gradbookNotices", "gradbook.js", "on a page: what this browser lacks that the page does without, each said as a notice"},
	{"gradbookWasm", "fetch-wasm.js", "on a page: take(url), the response of gradbook.wasm that the page's head started to fetch, once (the script is inline in the head: notebook/lesson/templates/fetch-wasm.js)"},
	{"gradbookEmbed", "embed.js", "on a course page: fetch, direct and why, which load Gradbook's files from its site"},
}
