package ui

import "fmt"

// recState is what the header says about recording.
type recState struct {
	path string
	size int64 // -1: not known
	on   bool
}

func (d *Dashboard) recorderBindings() []*binding {
	return []*binding{{[]string{"R"}, "start / stop recording this session to a file (header: REC file size)", d.toggleRecording, item{"R record", 6}}}
}

func (d *Dashboard) toggleRecording() {
	path, on, err := d.opts.Recorder.Toggle()
	d.recOn = on
	switch {
	case err != nil:
		d.say("recording: " + safeLine(err.Error(), 160))
	case on:
		d.say("recording to " + safeLine(path, 80))
	default:
		_, size, _ := d.opts.Recorder.Status()
		d.say(fmt.Sprintf("recording stopped: %s, %s", safeLine(path, 80), bytesShort(float64(size))))
	}
}

// recordingState asks the Recorder when there is one, and says so when
// recording stopped without the user asking; otherwise the frame names the
// file it is being recorded to.
func (d *Dashboard) recordingState() recState {
	if d.opts.Recorder == nil {
		return recState{path: d.frame.Recording, size: -1, on: d.frame.Recording != ""}
	}
	path, size, on := d.opts.Recorder.Status()
	if d.recOn && !on {
		d.say("recording to " + safeLine(path, 80) + " stopped (the reason is printed on exit)")
	}
	d.recOn = on
	return recState{path: path, size: size, on: on}
}

// recordingMark is the header's indicator: REC, the file and its size.
func recordingMark(r recState) string {
	if !r.on {
		return ""
	}
	s := "[red::b]REC[-::-] " + safeLine(r.path, 40)
	if r.size >= 0 {
		s += " " + bytesShort(float64(r.size))
	}
	return s
}
