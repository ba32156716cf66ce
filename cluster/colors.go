package cluster

// LoopColors is the palette of loops: loop k is drawn in LoopColors[(k-1) % len]. One table
// for every place a loop has a colour (the diagram's frames, the editor's gutter), so a loop
// is the same colour everywhere. The colours are Tableau's qualitative ten without its red
// and pink, which the diagram keeps for fusion-preventing edges; each reads on light and dark
// backgrounds.
var LoopColors = [...]string{"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#bab0ac"}

// LoopColor is the colour of loop number k (1-based); "" for k < 1 (externals have none).
func LoopColor(k int) string {
	if k < 1 {
		return ""
	}
	return LoopColors[(k-1)%len(LoopColors)]
}
