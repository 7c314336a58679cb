package analyzers

// Trends over a window of samples (the checkpoint age's climb, a replica's
// lag) are least-squares slopes: an end point can sit on a jump (the page
// cleaner's batch, Seconds_Behind moving from one event to the next).

// slope is the least-squares slope of ys over xs.
func slope(xs, ys []float64) float64 {
	n := float64(len(xs))
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx, sy = sx+xs[i], sy+ys[i]
		sxx, sxy = sxx+xs[i]*xs[i], sxy+xs[i]*ys[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / d
}
