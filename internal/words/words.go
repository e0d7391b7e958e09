// Package words writes counts in English for messages: "1 input",
// "2 inputs".
package words

import "strconv"

// Count returns n and word, with an s unless n is 1.
func Count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
