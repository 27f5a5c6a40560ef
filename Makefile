# The two commands for a fresh machine: `make run` and `make test`. Each installs what it needs first.
.PHONY: deps run test bench typecheck doctor

deps:
	bash scripts/dev-deps.sh

run: deps
	node bin/hark.js run $(ARGS)

test: deps
	npm run -s typecheck
	npx vitest run

bench: deps
	npx vitest bench --run

typecheck: deps
	npm run -s typecheck
