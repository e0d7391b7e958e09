package draw

// This file holds the estimate of how wide text is drawn, which the layout
// sizes every box by and the overlap checker checks against.

// Font sizes of a drawing's text, in SVG units. They must match the
// stylesheets (site/style.css, site/embed.css: svg.graph text is 12px);
// TestFontSizesMatchCSS checks that they do.
const (
	fontSize  = 12.0 // node text and edge labels
	ascent    = 0.76 // of fontSize above the baseline: caps and digits
	descent   = 0.24 // of fontSize below it
	lineGap   = 16.0 // from one line of a node's text to the next
	textInset = 8.0  // from a node's edge to its text
)

// Advance widths of ASCII 32–126 in thousandths of an em, in DejaVu Sans
// (regular and bold): the widest of the common system-ui fonts (Segoe UI,
// San Francisco, Roboto and Liberation Sans are narrower), so an estimate
// from it errs on the side of room.
var (
	regularWidths = [95]uint16{
		318, 401, 460, 838, 637, 951, 780, 275, 391, 391, 500, 838, 318, 361, 318, 337,
		637, 637, 637, 637, 637, 637, 637, 637, 637, 637, 337, 337, 838, 838, 838, 531,
		1000, 685, 687, 699, 771, 632, 576, 775, 752, 295, 295, 656, 558, 863, 749, 788,
		604, 788, 695, 635, 611, 732, 685, 989, 686, 611, 686, 391, 337, 391, 838, 500,
		500, 613, 635, 550, 635, 616, 353, 635, 634, 278, 278, 580, 278, 975, 634, 612,
		635, 635, 412, 521, 393, 634, 592, 818, 592, 592, 525, 637, 337, 637, 838,
	}
	boldWidths = [95]uint16{
		349, 457, 521, 838, 696, 1002, 873, 307, 458, 458, 523, 838, 380, 416, 380, 366,
		696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 581,
		1000, 774, 763, 734, 831, 684, 684, 821, 837, 373, 373, 775, 638, 996, 837, 851,
		733, 851, 771, 721, 683, 813, 774, 1104, 771, 725, 726, 458, 366, 458, 838, 500,
		500, 675, 716, 593, 716, 679, 436, 716, 712, 343, 343, 666, 343, 1042, 712, 688,
		716, 716, 494, 596, 479, 712, 652, 924, 646, 652, 583, 712, 366, 712, 838,
	}
)

// otherWidths are characters outside ASCII that drawings use, in
// thousandths of an em (the wider of DejaVu Sans and Liberation Sans).
var otherWidths = map[rune]uint16{
	'·': 380, '×': 838, '→': 1000, '∂': 544, '…': 1000, '−': 838, '²': 438, '³': 438,
	'Σ': 684, 'α': 688, 'β': 716, 'γ': 682, 'δ': 688, 'θ': 688, 'λ': 633, 'μ': 736,
	'σ': 779, 'ω': 870, 'ε': 557, '—': 1000, '–': 557, '≈': 838, '∇': 697,
}

// textWidth estimates how wide s is drawn at size (SVG units), bold or
// not. A character it does not know counts as 1 em: CJK ideographs are 1 em,
// most others less.
func textWidth(s string, size float64, bold bool) float64 {
	table := &regularWidths
	if bold {
		table = &boldWidths
	}
	em := 0
	for _, r := range s {
		switch w, ok := otherWidths[r]; {
		case r >= 32 && r < 127:
			em += int(table[r-32])
		case ok:
			em += int(w)
		default:
			em += 1000
		}
	}
	return float64(em) * size / 1000
}
