package recording

// ErrNotRecording is wrapped by Open's error when the file is not a mytop-go
// recording, so a command can try the file as a foreign capture instead.
var ErrNotRecording = errNotRecording
