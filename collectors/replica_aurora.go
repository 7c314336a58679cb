package collectors

import (
	"strconv"
	"strings"
)

// auroraStatement reads an Aurora MySQL cluster's instances. Aurora readers
// replicate through shared storage, not the binary log: SHOW REPLICA STATUS
// is empty on them, and their lag is REPLICA_LAG_IN_MILLISECONDS of their own
// row (SERVER_ID = @@aurora_server_id); the writer's row has SESSION_ID
// MASTER_SESSION_ID (Aurora User Guide, "Aurora MySQL–specific
// information_schema tables").
const auroraStatement = "SELECT SERVER_ID, SESSION_ID, REPLICA_LAG_IN_MILLISECONDS" +
	" FROM information_schema.replica_host_status"

// auroraWriterSession marks the writer's row.
const auroraWriterSession = "MASTER_SESSION_ID"

// isAurora is whether the server's variables are Aurora MySQL's.
func isAurora(vars map[string]string) bool { return vars["aurora_server_id"] != "" }

// auroraChannel turns an Aurora reader's own row into a replication channel
// row in SHOW REPLICA STATUS's spelling, so the replication panel and rules
// read it as any other; nil on the writer or when its row is missing.
func auroraChannel(rows []map[string]string, self string) map[string]string {
	var writer string
	var own map[string]string
	for _, r := range rows {
		if r["SESSION_ID"] == auroraWriterSession {
			writer = r["SERVER_ID"]
		}
		if r["SERVER_ID"] == self {
			own = r
		}
	}
	if own == nil || self == writer {
		return nil
	}
	row := map[string]string{
		"Channel_Name":        "aurora",
		"Source_Host":         writer,
		"Replica_IO_Running":  "Yes",
		"Replica_SQL_Running": "Yes",
		// Aurora's own lag, kept whole beside the seconds the rules read.
		"Aurora_Replica_Lag_Ms": own["REPLICA_LAG_IN_MILLISECONDS"],
	}
	if ms, err := strconv.ParseFloat(strings.TrimSpace(own["REPLICA_LAG_IN_MILLISECONDS"]), 64); err == nil {
		row["Seconds_Behind_Source"] = strconv.FormatInt(int64(ms/1000), 10)
	}
	return row
}
