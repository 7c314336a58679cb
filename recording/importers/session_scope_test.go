package importers

import "testing"

func TestIsSessionScope(t *testing.T) {
	s := func(v string) map[string]string { return map[string]string{"Com_show_status": v} }
	tests := []struct {
		name    string
		samples []map[string]string
		want    bool
	}{
		{"fresh connection each time", []map[string]string{s("1"), s("1"), s("1")}, true},
		{"global counter grows", []map[string]string{s("1"), s("2"), s("3")}, false},
		{"one sample cannot tell", []map[string]string{s("1")}, false},
		{"no Com_show_status", []map[string]string{{}, {}}, false},
	}
	for _, tc := range tests {
		if got := isSessionScope(tc.samples); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	m := map[string]string{"Com_select": "0", "Questions": "1", "Table_locks_waited": "447", "Innodb_buffer_pool_reads": "33610", "Queries": "12006"}
	dropSessionScoped(m)
	if len(m) != 3 || m["Queries"] != "12006" || m["Table_locks_waited"] != "447" {
		t.Errorf("after dropping: %v", m)
	}
}
