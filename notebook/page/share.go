package page

import (
	"encoding/base64"
	"strings"
)

// Sharing: a cell's code travels in the address's fragment,
// #share=<cell id>:<code in base64url>, so it never reaches a server.

// SharePrefix starts a share link's fragment.
const SharePrefix = "#share="

// ShareLink is the address href (its fragment dropped) that opens cell id
// with code.
func ShareLink(href, id, code string) string {
	base, _, _ := strings.Cut(href, "#")
	return base + SharePrefix + id + ":" + base64.RawURLEncoding.EncodeToString([]byte(code))
}

// ParseShare reads a share link's fragment: the cell and its code.
func ParseShare(hash string) (id, code string, ok bool) {
	rest, ok := strings.CutPrefix(hash, SharePrefix)
	if !ok {
		return "", "", false
	}
	id, enc, ok := strings.Cut(rest, ":")
	if !ok || id == "" {
		return "", "", false
	}
	src, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return "", "", false
	}
	return id, string(src), true
}
