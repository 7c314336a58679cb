package testdb

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// GaleraProvider is where Debian's galera-4 package puts the wsrep provider.
const GaleraProvider = "/usr/lib/galera/libgalera_smm.so"

// StartGalera starts an n-node Galera cluster on loopback: every node on
// private ports (client, group communication, IST, SST), the first
// bootstrapping the cluster, each next one joining by an rsync state
// transfer of the (small) template datadir. It returns once every node is
// Synced in a cluster of n. The test is skipped, saying what to install,
// when galera-4 or rsync is missing. Stopping a node with Stop makes it
// leave cleanly; the others go on as a smaller Primary component.
func StartGalera(t testing.TB, n int, extraArgs ...string) []*Server {
	t.Helper()
	SkipShort(t)
	if _, err := os.Stat(GaleraProvider); err != nil {
		Missing(t, "testdb: no Galera provider at %s: install the Debian package galera-4", GaleraProvider)
	}
	if _, err := exec.LookPath("rsync"); err != nil {
		Missing(t, "testdb: Galera state transfer needs rsync: install the Debian package rsync")
	}
	gcomm := make([]int, n)
	for i := range gcomm {
		p, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		gcomm[i] = p
	}
	var peers []string
	for _, p := range gcomm {
		peers = append(peers, net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
	}
	nodes := make([]*Server, n)
	for i := range nodes {
		args := galeraArgs(i, gcomm[i], strings.Join(peers, ","))
		s, err := launchWith(asGaleraNode, append(args, extraArgs...))
		if err != nil {
			t.Fatalf("testdb: galera node %d: %v", i+1, err)
		}
		t.Cleanup(func() { s.Close() })
		nodes[i] = s
		s.waitSynced(t, i+1)
	}
	return nodes
}

func galeraArgs(i, gcommPort int, peers string) []string {
	args := []string{
		"--wsrep-on=ON",
		"--wsrep-provider=" + GaleraProvider,
		"--wsrep-cluster-address=gcomm://" + peers,
		"--wsrep-cluster-name=mytop-test",
		fmt.Sprintf("--wsrep-node-name=node%d", i+1),
		fmt.Sprintf("--wsrep-node-address=127.0.0.1:%d", gcommPort),
		"--wsrep-sst-method=rsync",
		"--binlog-format=ROW",
		"--innodb-autoinc-lock-mode=2",
	}
	if i == 0 {
		args = append(args, "--wsrep-new-cluster")
	}
	return args
}

// asGaleraNode adds the node's own IST and SST ports and, as root, runs it
// as the mysql user: the rsync daemon of a state transfer started by root
// drops to nobody, which cannot write the datadir.
func asGaleraNode(s *Server) error {
	var ports []int
	for range 2 {
		p, err := freePort()
		if err != nil {
			return err
		}
		ports = append(ports, p)
	}
	gcommAddr := ""
	for _, a := range s.Args {
		if v, ok := strings.CutPrefix(a, "--wsrep-node-address="); ok {
			gcommAddr = v
		}
	}
	s.Args = append(s.Args,
		fmt.Sprintf("--wsrep-provider-options=gmcast.listen_addr=tcp://%s;ist.recv_addr=127.0.0.1:%d;gcache.size=16M",
			gcommAddr, ports[0]),
		fmt.Sprintf("--wsrep-sst-receive-address=127.0.0.1:%d", ports[1]))
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("mysql")
	if err != nil {
		return fmt.Errorf("running a Galera node as root needs the mysql user (from mariadb-server): %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	// mariadbd takes the first --user it is given.
	for i, a := range s.Args {
		if strings.HasPrefix(a, "--user=") {
			s.Args[i] = "--user=mysql"
		}
	}
	return filepath.Walk(s.dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
}

// waitSynced waits until the node reports Synced and ready.
func (s *Server) waitSynced(t testing.TB, node int) {
	t.Helper()
	db, err := s.adminDB()
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(startTimeout)
	for {
		var name, state string
		err := db.QueryRow("SHOW GLOBAL STATUS LIKE 'wsrep_local_state_comment'").Scan(&name, &state)
		if err == nil && state == "Synced" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("testdb: galera node %d not Synced within %v (%q, %v); log tail:\n%s", node, startTimeout,
				state, err, s.logTail())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
