package visibility

import "strings"

// Managed services, as the server says of itself.
const (
	managedRDS      = "rds"
	managedAurora   = "aurora"
	managedAzure    = "azure"
	managedCloudSQL = "cloudsql"
)

// adminUsers are the service's own accounts, seen in the processlist.
var adminUsers = map[string]string{
	"rdsadmin":        managedRDS,
	"azure_superuser": managedAzure,
	"cloudsqladmin":   managedCloudSQL,
}

// managedFrom names the managed service a server belongs to from its
// variables (RDS installs under /rdsdbbin/, Aurora has aurora_version) and
// the users of its sessions; "" for a server of one's own.
func managedFrom(vars map[string]string, users []string) string {
	if vars["aurora_version"] != "" {
		return managedAurora
	}
	if strings.Contains(vars["basedir"], "/rdsdbbin/") {
		return managedRDS
	}
	if strings.Contains(strings.ToLower(vars["version_comment"]), "azure") {
		return managedAzure
	}
	for _, u := range users {
		if m, ok := adminUsers[u]; ok {
			return m
		}
	}
	return ""
}
