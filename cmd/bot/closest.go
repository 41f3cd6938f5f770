package main

// closest returns the one of names nearest to s, for "did you mean":
// the fewest letters added, removed, changed or swapped with their
// neighbour (an optimal string alignment distance); "" when none is near
// enough to be what was meant (more than 2 edits, and more than a third
// of its letters).
func closest(s string, names []string) string {
	best, bestD := "", 0
	for _, n := range names {
		d := editDistance(s, n)
		if d > 2 && 3*d > len(n) {
			continue
		}
		if best == "" || d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance of a and b, in
// bytes (the names compared are ASCII).
func editDistance(a, b string) int {
	// d[i][j] is the distance of a[:i] and b[:j]; three rows suffice.
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
