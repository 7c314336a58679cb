// Package parse turns the text servers and tools print (SHOW ENGINE INNODB
// STATUS, processlists, status and replica tables, lock tables, vmstat, error
// logs) into snapshot's values, for live collectors and importers alike.
package parse
