package collectors

import (
	"context"
	"database/sql/driver"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
)

// gatedConnector opens the sessions of one pool (sampling or on demand)
// through the Live's loginGate, with the credentials the gate holds now.
type gatedConnector struct {
	gate *loginGate
	// build makes the driver's connector for a configuration (the greeting
	// reader wrapped around its dialer).
	build func(*mysql.Config) (driver.Connector, error)

	mu    sync.Mutex
	cfg   *mysql.Config // the configuration inner was built from
	inner driver.Connector
}

func newGatedConnector(gate *loginGate, build func(*mysql.Config) (driver.Connector, error)) (*gatedConnector, error) {
	c := &gatedConnector{gate: gate, build: build}
	if _, err := c.connectorFor(gate.cfg); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *gatedConnector) Connect(ctx context.Context) (driver.Conn, error) {
	cfg, err := c.gate.admit(time.Now())
	if err != nil {
		return nil, err
	}
	inner, err := c.connectorFor(cfg)
	if err != nil {
		c.gate.release() // nothing reached the server
		return nil, err
	}
	conn, err := inner.Connect(ctx)
	c.gate.report(cfg, err, time.Now())
	return conn, err
}

func (c *gatedConnector) Driver() driver.Driver {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.inner.Driver()
}

// connectorFor is the driver's connector for cfg, built again when the gate
// took other credentials.
func (c *gatedConnector) connectorFor(cfg *mysql.Config) (driver.Connector, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cfg != cfg {
		inner, err := c.build(cfg)
		if err != nil {
			return nil, err
		}
		c.cfg, c.inner = cfg, inner
	}
	return c.inner, nil
}
