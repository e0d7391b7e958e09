//go:build js && wasm && !lms

package web

// Without the lms build tag, gradbook.wasm has no SCORM reporting: the
// site's pages never need it, and leaving it out (package lms and Go's
// deflate) keeps every learner's download 68 KB smaller. serve.go -scorm
// builds the packages' gradbook.wasm with it (lms.go).

import "gradbook/notebook/page"

func lmsOf() func(*page.Page) page.LMS { return nil }
