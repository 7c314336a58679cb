package testdb

import "testing"

type Server struct{}

func Start(t testing.TB, args ...string) *Server { return &Server{} }
