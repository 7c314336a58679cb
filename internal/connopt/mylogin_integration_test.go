package connopt

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/internal/testdb"
)

// A login path written in the real format connects to a real server; the
// [client] group alone names a user the server refuses.
func TestLoginPathConnects(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	dir := t.TempDir()
	login := writeLoginFile(t, dir, "[client]\nuser = \"nobody_here\"\n[ops]\nuser = \"root\"\nsocket = \""+srv.Socket+"\"\n", 0o600)
	ping := func(o Options) error {
		resolved, _, err := o.resolveWith(envOf(nil), nil, login)
		if err != nil {
			return err
		}
		cfg, err := resolved.Config()
		if err != nil {
			return err
		}
		conn, err := mysql.NewConnector(cfg)
		if err != nil {
			return err
		}
		db := sql.OpenDB(conn)
		defer db.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		return db.PingContext(ctx)
	}
	if err := ping(Options{LoginPath: "ops", NoDefaults: true}); err != nil {
		t.Fatalf("--login-path ops: %v", err)
	}
	err := ping(Options{NoDefaults: true, Socket: srv.Socket})
	if err == nil || !strings.Contains(err.Error(), "nobody_here") {
		t.Errorf("[client] of the login file not used: %v", err)
	}
}
