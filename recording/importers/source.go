package importers

import "github.com/mytop-go/mytop-go/pipeline"

// Source replays the session's snapshots in order as a pipeline.Source.
func (s *Session) Source() pipeline.Source { return pipeline.NewSliceSource(s.Snapshots) }
