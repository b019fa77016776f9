package dql

// Dump prints a syntax tree without positions, for tests in package dql_test.
var Dump = dump
