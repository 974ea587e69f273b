module canopy

go 1.26

require (
	github.com/go-json-experiment/json v0.0.0-20260820222146-c27c302e5fc3 // indirect
	github.com/spf13/pflag v1.0.10 // indirect
)
