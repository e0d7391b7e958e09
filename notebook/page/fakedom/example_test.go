package fakedom_test

import (
	"fmt"

	"gradbook/notebook/page"
	"gradbook/notebook/page/fakedom"
)

// A page's logic listens on the document it is given; the test clicks as
// a learner would and reads what the learner sees.
func Example() {
	doc := fakedom.Parse(`<section class="cell"><button class="run">Run</button><output class="out"></output><p hidden>Ready.</p></section>`)

	// The page's logic: Run writes into the output and shows the note.
	out := doc.Query("section.cell output.out")
	doc.Query("button.run").Listen("click", func(e page.Event) {
		out.SetText("42")
		e.Target().Closest("section").Query("p").RemoveAttr("hidden")
	})

	fakedom.Click(doc.Query("button.run"))
	fmt.Println(out.Text())
	fmt.Println(fakedom.VisibleText(doc.Body()))
	fmt.Println(fakedom.HTML(doc.Query("section")))
	// Output:
	// 42
	// Run42Ready.
	// <section class="cell"><button class="run">Run</button><output class="out">42</output><p>Ready.</p></section>
}
