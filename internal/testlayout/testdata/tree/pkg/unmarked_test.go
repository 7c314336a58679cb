package pkg

import "testing"

func TestUnmarked(t *testing.T) {
	t.Parallel()
	server(t)
}
