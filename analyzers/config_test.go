package analyzers

import (
	"reflect"
	"slices"
	"testing"
)

// Every threshold has its shipped value, field by field: a number in Config
// or in a rule's Config embedded in it that DefaultConfig leaves at 0 fails
// here, unless the field declares why 0 is meant (a `zero:"why"` tag). A
// threshold added to a rule's Config and forgotten in its defaults would
// otherwise be 0 unseen: every signal above the line, or a floor of nothing.
func TestEveryThresholdHasADefault(t *testing.T) {
	for _, name := range zeroThresholds(DefaultConfig()) {
		t.Errorf("%s is 0 in DefaultConfig: set it in its Config's defaults, or tag the field `zero:\"why 0 is meant\"`", name)
	}
}

// The check above names each threshold it is given at 0: every numeric field
// without a zero tag, zeroed alone in the defaults, is reported, and by name.
func TestZeroThresholdsNamesEachField(t *testing.T) {
	checked := 0
	for _, path := range numericFields(reflect.TypeFor[Config](), "Config.", nil) {
		c := DefaultConfig()
		f := reflect.ValueOf(&c).Elem().FieldByIndex(path.index)
		if path.zeroMeant || f.IsZero() {
			continue
		}
		f.SetZero()
		if got := zeroThresholds(c); !slices.Equal(got, []string{path.name}) {
			t.Errorf("%s zeroed: reported %v", path.name, got)
		}
		checked++
	}
	if checked < 100 {
		t.Errorf("only %d thresholds checked: the walk misses Config's fields", checked)
	}
}

// Every Config embedded in Config is a rule's (or a shared helper's) and
// has its defaults method, which DefaultConfig calls: one without it would
// ship all its thresholds at 0.
func TestEveryEmbeddedConfigHasDefaults(t *testing.T) {
	ct, rc := reflect.TypeFor[Config](), reflect.TypeFor[ruleConfig]()
	for i := range ct.NumField() {
		if f := ct.Field(i); f.Anonymous && !reflect.PointerTo(f.Type).Implements(rc) {
			t.Errorf("Config.%s has no defaults method (func (c *%s) defaults()) beside its thresholds", f.Name, f.Type.Name())
		}
	}
}

// zeroThresholds names the numeric fields of c at 0 that do not say 0 is
// meant, as Config.<embedded Config>.<field>.
func zeroThresholds(c Config) []string {
	v := reflect.ValueOf(c)
	var out []string
	for _, f := range numericFields(v.Type(), "Config.", nil) {
		if !f.zeroMeant && v.FieldByIndex(f.index).IsZero() {
			out = append(out, f.name)
		}
	}
	return out
}

// numericField is one number of Config, however deep in its structs.
type numericField struct {
	name      string
	index     []int
	zeroMeant bool
}

// numericFields walks t's fields and the structs among them (the embedded
// rule Configs, Persistence), naming each number from prefix; maps
// (Config.Persistence, made from the rules' persist values) hold no
// threshold of their own. A zero tag counts only with its reason.
func numericFields(t reflect.Type, prefix string, at []int) []numericField {
	var out []numericField
	for i := range t.NumField() {
		f := t.Field(i)
		index := append(slices.Clone(at), i)
		switch f.Type.Kind() {
		case reflect.Struct:
			out = append(out, numericFields(f.Type, prefix+f.Name+".", index)...)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Float32, reflect.Float64:
			out = append(out, numericField{name: prefix + f.Name, index: index, zeroMeant: f.Tag.Get("zero") != ""})
		}
	}
	return out
}
