package recording

import "time"

var zeroTime time.Time
