module github.com/cnf-tools/cnf

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/lanl/highs v1.0.0 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	golang.org/x/exp v0.0.0-20221217163422-3c43f8badb15 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
