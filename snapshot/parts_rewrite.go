package snapshot

import "reflect"

// RewriteText replaces in place each statement text s holds (Parts' Text)
// with what rewrite makes of it; a field is written only when its text
// changes, so a part that consumers may be reading is left alone when there
// is nothing to change. Parts s shares with prev (the same pointer, slice or
// map: ticks between reads carry the same InnoDB status, digests and lock
// graph) were rewritten with prev and are skipped.
func (s *Snapshot) RewriteText(prev *Snapshot, rewrite func(TextKind, string) string) {
	sv := reflect.ValueOf(s).Elem()
	var pv reflect.Value
	if prev != nil {
		pv = reflect.ValueOf(prev).Elem()
	}
	for _, t := range texts {
		top := sv.Field(t.steps[0].field)
		if pv.IsValid() && sameData(top, pv.Field(t.steps[0].field)) {
			continue
		}
		w := textWalker{kind: t.Kind, rewrite: rewrite}
		w.walk(top, t.steps[1:])
	}
}

// WithTextRewritten returns a copy of s whose statement texts are what
// rewrite makes of them; s and everything it points to are left as they
// were (each slice, map and pointer on the way to a text is copied).
func (s *Snapshot) WithTextRewritten(rewrite func(TextKind, string) string) *Snapshot {
	c := *s
	cv := reflect.ValueOf(&c).Elem()
	for _, t := range texts {
		w := textWalker{kind: t.Kind, rewrite: rewrite, copying: true}
		w.walk(cv.Field(t.steps[0].field), t.steps[1:])
	}
	return &c
}

// EachText calls f with each non-empty statement text s holds.
func (s *Snapshot) EachText(f func(TextKind, string)) {
	sv := reflect.ValueOf(s).Elem()
	for _, t := range texts {
		w := textWalker{kind: t.Kind, rewrite: func(k TextKind, text string) string {
			if text != "" {
				f(k, text)
			}
			return text
		}}
		w.walk(sv.Field(t.steps[0].field), t.steps[1:])
	}
}

// sameData reports whether two fields share their data: the same non-nil
// pointer, or the same backing of a slice or map.
func sameData(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Pointer, reflect.Map:
		return !a.IsNil() && a.UnsafePointer() == b.UnsafePointer()
	case reflect.Slice:
		return a.Len() > 0 && a.Len() == b.Len() && a.UnsafePointer() == b.UnsafePointer()
	}
	return false
}

// textWalker follows one compiled path below a value.
type textWalker struct {
	kind    TextKind
	rewrite func(TextKind, string) string
	// copying copies every slice, map and pointer before writing below it.
	copying bool
}

// walk goes down v (settable) along steps.
func (w *textWalker) walk(v reflect.Value, steps []textStep) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if w.copying {
			c := reflect.New(v.Type().Elem())
			c.Elem().Set(v.Elem())
			v.Set(c)
		}
		w.walk(v.Elem(), steps)
	case reflect.Slice:
		if v.Len() == 0 {
			return
		}
		if w.copying {
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			v.Set(c)
		}
		for i := range v.Len() {
			w.walk(v.Index(i), steps)
		}
	case reflect.Map:
		w.walkMap(v, steps)
	case reflect.Struct:
		w.walk(v.Field(steps[0].field), steps[1:])
	case reflect.String:
		if n := w.rewrite(w.kind, v.String()); n != v.String() {
			v.SetString(n)
		}
	}
}

// walkMap goes through a map: to one key's string, or into each value.
func (w *textWalker) walkMap(v reflect.Value, steps []textStep) {
	if v.Len() == 0 {
		return
	}
	if w.copying {
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			c.SetMapIndex(it.Key(), it.Value())
		}
		v.Set(c)
	}
	if steps[0].field < 0 {
		key := reflect.ValueOf(steps[0].key)
		if old := v.MapIndex(key); old.IsValid() {
			if n := w.rewrite(w.kind, old.String()); n != old.String() {
				v.SetMapIndex(key, reflect.ValueOf(n))
			}
		}
		return
	}
	for _, key := range v.MapKeys() {
		e := reflect.New(v.Type().Elem()).Elem()
		e.Set(v.MapIndex(key))
		w.walk(e, steps)
		if w.copying || e.Kind() != reflect.Pointer {
			v.SetMapIndex(key, e)
		}
	}
}
