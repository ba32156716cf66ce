# For those who prefer make: the same two jobs as the README's commands.
.PHONY: run test fuzz
run:
	./run.bash
test:
	./test.bash
fuzz:
	FUZZTIME=$${FUZZTIME:-3m} go test -run '^$$' -fuzz FuzzAnalyze -fuzztime $${FUZZTIME:-3m} ./syntax
