# wrapcmp: Coccinelle rules, helpers and tree-wide runner.  See README.md.

# Debian packages the suite needs: spatch with Python, z3 for the proofs, the
# cross compilers for the codegen table, GNU parallel for the runner and the
# pinned kernel source with its build dependencies for the tree-wide run and the
# kernel build of the header, bear and cmake for the test project of tests/check-hosted,
# qemu-user to run tests/check-helpers' 32-bit programs where the kernel cannot (no
# IA32 emulation).
DEPS := coccinelle python3-z3 parallel gcc clang make \
	gcc-i686-linux-gnu gcc-aarch64-linux-gnu gcc-powerpc64le-linux-gnu qemu-user \
	libubsan1 linux-source-6.1 xz-utils patch git \
	flex bison bc libelf-dev libssl-dev \
	python3-jsonschema python3-rfc3987 nodejs bear cmake

.PHONY: all check install-deps bench-codegen run help

all: help

help:
	@echo "make check          install what is missing, then run every test"
	@echo "make run            run the suite over the default kernel tree (TREE=...)"
	@echo "make install-deps   install the Debian packages listed in DEPS"
	@echo "make bench-codegen  instruction counts of helpers and idioms on four architectures"

# The SARIF 2.1.0 schema that tests/check-sarif validates against comes from the npm
# registry (scripts/sarif-schema-fetch, cached); npm is Debian's unless a nodejs from
# elsewhere brought its own.
install-deps:
	@missing=$$(for p in $(DEPS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' \
			|| echo $$p; done; \
		command -v npm >/dev/null 2>&1 || echo npm); \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
		echo "install-deps: installing" $$missing; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	else \
		echo "install-deps: missing packages; run as root:"; \
		echo "  apt-get update && apt-get install -y" $$missing; \
		exit 1; \
	fi
	@scripts/sarif-schema-fetch >/dev/null

check: install-deps kernel-tree
	tests/run

bench-codegen: install-deps
	scripts/bench-codegen

# The tree-wide runner (run, tree-check, tree-exhaustive, bench, coccicheck-install).
include mk/runner.mk
# The per-subsystem patch series (series, series-buildcheck).
include mk/series.mk
