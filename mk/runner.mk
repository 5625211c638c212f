# The tree-wide runner (issue 4).  Included from the top Makefile.
#
#   make run               whole suite over TREE, outputs in OUT (report.txt, report.json,
#                          wrapcmp.diff, summary.txt)
#   make tree-check        run on the default tree and diff against expected/linux-6.1/
#   make tree-exhaustive   run with no prefilter (every file to spatch: 47 minutes for Linux
#                          6.1 on 2 cores) and compare its findings and patch with the fast
#                          run (about 3 minutes)
#   make bench             fast runner against plain `spatch --dir` on BENCH_DIRS, as a ratio
#   make bench-cache       the result cache on the whole TREE: cold, unchanged, 20 files
#                          changed (in a hard-linked copy; TREE is not written)
#   make bench-cold        the cold whole-TREE run of this checkout against commit BENCH_BASE
#                          (default c1019ca, before the cold-run work of issue 11), alternately,
#                          BENCH_ROUNDS (2) rounds each: times, CPU, ratios, outputs equal
#   make coccicheck-install KDIR=/path/to/linux   put the rules into KDIR/scripts/coccinelle
#   make check-patch PATCH=file [TREE=/path/to/linux] [CONFIDENCE=moderate] [FIX=1 [FIX_OUT=f]]
#                          does the patch add the idiom?  checkpatch-style findings on the
#                          lines it adds (scripts/wrapcmp-check-patch); no PATCH: standard
#                          input (make check-patch < x.patch).  make runs here, not in the
#                          kernel tree, so give TREE= (the script alone defaults to the
#                          current directory when it is a kernel tree).  CONFIDENCE: the
#                          command exits 1 at or above it (default moderate), 2 when the
#                          patch cannot be read or applied; make then says "Error 1" or
#                          "Error 2" and exits 2 itself
#
# Variables: TREE (default: Debian's linux-source-6.1 unpacked into /var/cache/wrapcmp),
# OUT (default out/), JOBS (default nproc), APPLY=1 (apply the patch to TREE, all or nothing),
# CONFIDENCE=low|moderate|high (patch only the findings of at least this confidence),
# ALLOW_PARSE_FAILURES=1 (exit 0 although spatch failed on some file), HOSTS=file (GNU parallel
# --sshloginfile: spread the shards over these ssh hosts; the tree, this repository and the
# scratch folder WORKDIR must be at the same paths on every host, e.g. on NFS).
# A C project that is not a kernel tree (README "On your own C project"): HOSTED=yes|no
# (default: a kernel tree has Kbuild, Kconfig and include/linux/ at its top), HEADER=
# (where the project's wrapcmp.h goes; default printed), COMPILE_COMMANDS= (default:
# compile_commands.json at the top of TREE or in its build/).  EVIDENCE=yes: compiler
# evidence per finding (scripts/wrapcmp/evidence.py; off by default).

WRAPCMP_DEFAULT_TREE := /var/cache/wrapcmp/linux-source-6.1
TREE ?= $(WRAPCMP_DEFAULT_TREE)
OUT ?= out
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
APPLY ?=
CONFIDENCE ?= low
ALLOW_PARSE_FAILURES ?=
HOSTS ?=
HOSTED ?=
HEADER ?=
COMPILE_COMMANDS ?=
EVIDENCE ?=
KDIR ?=
BENCH_DIRS ?= drivers/net fs
EXHAUSTIVE_OUT ?= $(OUT)-exhaustive
BENCH_BASE ?= c1019ca
BENCH_ROUNDS ?= 2
FAST_OUT ?= $(OUT)-fast
TREE_CHECK_OUT ?= $(OUT)-tree-check

WRAPCMP_RUN = TREE='$(TREE)' JOBS='$(JOBS)' APPLY='$(APPLY)' CONFIDENCE='$(CONFIDENCE)' \
	ALLOW_PARSE_FAILURES='$(ALLOW_PARSE_FAILURES)' HOSTS='$(HOSTS)' \
	HOSTED='$(HOSTED)' HEADER='$(HEADER)' COMPILE_COMMANDS='$(COMPILE_COMMANDS)' \
	EVIDENCE='$(EVIDENCE)' scripts/wrapcmp-run

.PHONY: run tree-check tree-exhaustive tree-compare bench bench-cache bench-cold coccicheck-install \
	kernel-tree check-patch

# The default tree, unpacked from Debian's linux-source-6.1 on first use (make check needs it).
kernel-tree: install-deps
	@cd scripts && python3 -m wrapcmp.sources

run: install-deps
	$(WRAPCMP_RUN) --out '$(OUT)'

# The expected files hold what the default tree gives; any difference fails.
tree-check: install-deps
	TREE='$(WRAPCMP_DEFAULT_TREE)' JOBS='$(JOBS)' CONFIDENCE=low scripts/wrapcmp-run --out '$(TREE_CHECK_OUT)'
	diff -u expected/linux-6.1/report.txt '$(TREE_CHECK_OUT)/report.txt'
	diff -u expected/linux-6.1/wrapcmp.diff '$(TREE_CHECK_OUT)/wrapcmp.diff'
	@echo "tree-check: report.txt and wrapcmp.diff equal expected/linux-6.1/"

# Proof that the prefilter is lossless: every file to spatch, then the same findings
# and the same patch as the prefiltered run.  spatch 1.1.1 crashes on 11 files of Linux 6.1
# (stack overflow, SIGSEGV or the timeout on 9 huge amdgpu asic_reg headers, "strange type"
# on 2 files with a (long unsigned) cast); they are listed in $(EXHAUSTIVE_OUT)/summary.txt
# and do not stop the comparison (the prefilter drops them: they hold no candidate).
# 47 minutes on 2 cores.
tree-exhaustive: install-deps
	$(WRAPCMP_RUN) --no-prefilter --shard-size 20 --timeout-per-file 30 \
		--allow-parse-failures --out '$(EXHAUSTIVE_OUT)'
	$(WRAPCMP_RUN) --out '$(FAST_OUT)'
	$(MAKE) --no-print-directory tree-compare

tree-compare:
	diff -u '$(EXHAUSTIVE_OUT)/report.txt' '$(FAST_OUT)/report.txt'
	diff -u '$(EXHAUSTIVE_OUT)/wrapcmp.diff' '$(FAST_OUT)/wrapcmp.diff'
	@grep -h -e '^files passed to spatch' -e '^time taken' \
		'$(EXHAUSTIVE_OUT)/summary.txt' '$(FAST_OUT)/summary.txt'
	@echo "tree-compare: the exhaustive and the prefiltered run agree"

bench: install-deps
	TREE='$(TREE)' JOBS='$(JOBS)' scripts/bench $(BENCH_DIRS)

bench-cache: install-deps
	TREE='$(TREE)' JOBS='$(JOBS)' scripts/bench --cache

bench-cold: install-deps
	TREE='$(TREE)' JOBS='$(JOBS)' scripts/bench --against '$(BENCH_BASE)' '$(BENCH_ROUNDS)'

coccicheck-install:
	@test -n '$(KDIR)' || { echo "coccicheck-install: give KDIR=/path/to/linux"; exit 2; }
	scripts/coccicheck-install KDIR='$(KDIR)'

# The variables reach the command through the environment (make exports those given on its
# command line), never through the recipe's text: a patch's or a tree's name is data.  TREE
# and CONFIDENCE are passed only when given (this file's TREE and CONFIDENCE defaults are
# make run's).
check-patch: install-deps
	@scripts/wrapcmp-check-patch $${TREE:+--tree "$$TREE"} \
		$${CONFIDENCE:+--confidence "$$CONFIDENCE"} $${FIX:+--fix} \
		$${FIX_OUT:+--fix-out "$$FIX_OUT"} -- "$${PATCH:--}"
