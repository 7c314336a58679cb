package collectors

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// hostCacheStatement lists the client hosts with connection errors: the ones
// blocked by max_connect_errors (error 1129) and the ones on their way.
// The host cache holds at most host_cache_size rows (a few hundred).
const hostCacheStatement = "SELECT IP, HOST, SUM_CONNECT_ERRORS, COUNT_HOST_BLOCKED_ERRORS, " +
	"COUNT_HANDSHAKE_ERRORS, COUNT_AUTHENTICATION_ERRORS, COUNT_MAX_USER_CONNECTIONS_ERRORS, LAST_ERROR_SEEN " +
	"FROM performance_schema.host_cache WHERE SUM_CONNECT_ERRORS > 0 OR COUNT_HOST_BLOCKED_ERRORS > 0 " +
	"ORDER BY SUM_CONNECT_ERRORS DESC, COUNT_HOST_BLOCKED_ERRORS DESC LIMIT 20"

// hostCacheRecheck is how often the host cache is read while no login
// fails: FLUSH HOSTS moves no counter, so an unblocked host is seen gone
// within this time.
const hostCacheRecheck = 10 * time.Second

// hostCache reads the client hosts with connection errors from
// performance_schema.host_cache into Snapshot.HostErrors. It sends its
// statement when Aborted_connects (read this tick) moved since its last read
// (every failed handshake and every refusal of a blocked host moves it), and
// otherwise every hostCacheRecheck; between reads it carries the last one.
type hostCache struct {
	link    *serverLink
	last    []snapshot.HostErrors
	readAt  time.Time
	aborted string
	// refused is why the table cannot be read, asked again after refusalTTL.
	refused   string
	refusedAt time.Time
}

// Name implements Collector.
func (c *hostCache) Name() snapshot.CollectorName { return snapshot.CollectorHostCache }

// Collect implements Collector.
func (c *hostCache) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	if ps, ok := s.Variables["performance_schema"]; ok && !strings.EqualFold(strings.TrimSpace(ps), "ON") {
		c.last = nil
		setUnavailable(s, snapshot.CollectorHostCache, "performance_schema is off (MariaDB's default): blocked "+
			"hosts are not named; add performance_schema=ON under [mysqld] in my.cnf and restart")
		return nil
	}
	if c.refused != "" && s.Time.Sub(c.refusedAt) < refusalTTL {
		setUnavailable(s, snapshot.CollectorHostCache, c.refused)
		return nil
	}
	aborted := s.Status["Aborted_connects"]
	if !c.readAt.IsZero() && aborted == c.aborted && s.Time.Sub(c.readAt) < hostCacheRecheck {
		s.HostErrors = c.last
		return nil
	}
	sess := c.link.session()
	if sess == nil {
		return errNotConnected
	}
	t, err := queryTable(ctx, sess.conn, hostCacheStatement)
	if err != nil {
		s.HostErrors = c.last
		if rememberRefusal(err) {
			c.refused, c.refusedAt, c.last = "cannot read performance_schema.host_cache (needs SELECT on "+
				"performance_schema): "+firstLine(err.Error()), s.Time, nil
			if serverErrno(err) == errNoSuchTable { // MySQL 5.5, MariaDB 5.5
				c.refused = "this server has no performance_schema.host_cache (MySQL 5.6+, MariaDB 10.0+): " +
					"blocked hosts are not named"
			}
			setUnavailable(s, snapshot.CollectorHostCache, c.refused)
			return nil
		}
		return err
	}
	c.refused, c.readAt, c.aborted = "", s.Time, aborted
	var hosts []snapshot.HostErrors
	for _, r := range t.rows {
		if len(r) < 8 {
			continue
		}
		n := func(i int) int64 { v, _ := strconv.ParseInt(r[i].String, 10, 64); return v }
		hosts = append(hosts, snapshot.HostErrors{IP: r[0].String, Host: r[1].String, ConnectErrors: n(2),
			BlockedErrors: n(3), HandshakeErrors: n(4), AuthErrors: n(5), UserLimitErrors: n(6),
			LastError: r[7].String})
	}
	c.last, s.HostErrors = hosts, hosts
	return nil
}

// accountLimitsStatement lists the accounts with a connection limit of their
// own; mysql.user has the column on MySQL 5.x–9.x and MariaDB (a view over
// mysql.global_priv since 10.4).
const accountLimitsStatement = "SELECT User, Host, max_user_connections FROM mysql.user " +
	"WHERE max_user_connections <> 0 LIMIT 1000"

// accountLimits reads the accounts' own MAX_USER_CONNECTIONS from mysql.user
// into Snapshot.AccountLimits, every minute (its row of snapshot.Parts). Without SELECT on
// mysql.user it says so, and only the global max_user_connections is judged.
type accountLimits struct {
	link *serverLink
	last []snapshot.AccountLimit
}

// Name implements Collector.
func (c *accountLimits) Name() snapshot.CollectorName { return snapshot.CollectorAccountLimits }

// Collect implements Collector.
func (c *accountLimits) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	sess := c.link.session()
	if sess == nil {
		return errNotConnected
	}
	t, err := queryTable(ctx, sess.conn, accountLimitsStatement)
	if err != nil {
		if rememberRefusal(err) {
			c.last = nil
			setUnavailable(s, snapshot.CollectorAccountLimits, "cannot read the accounts' MAX_USER_CONNECTIONS "+
				"(needs SELECT on mysql.user): "+firstLine(err.Error())+"; only the global max_user_connections is judged")
			return nil
		}
		c.carry(nil, s)
		return err
	}
	var list []snapshot.AccountLimit
	for _, r := range t.rows {
		if len(r) < 3 {
			continue
		}
		n, _ := strconv.ParseInt(r[2].String, 10, 64)
		list = append(list, snapshot.AccountLimit{User: r[0].String, Host: r[1].String, MaxUserConnections: n})
	}
	c.last, s.AccountLimits = list, list
	return nil
}

// carry keeps the last read between reads.
func (c *accountLimits) carry(_, cur *snapshot.Snapshot) { cur.AccountLimits = c.last }

// carrySkipped keeps it while the server cannot be asked: accounts change
// by statements, not by an outage.
func (c *accountLimits) carrySkipped(prev, cur *snapshot.Snapshot) { c.carry(prev, cur) }
