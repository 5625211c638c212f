# The per-subsystem patch series (issue 5).  Included from the top Makefile.
#
#   make series TREE=... OUT=...           OUT/series/: cover letter, header patch, one patch
#                                          per maintained area, send.sh (never run); verified
#                                          with the tree's checkpatch.pl --strict and git am.
#                                          Made from `make run CONFIDENCE=$(SERIES_CONFIDENCE)
#                                          EXISTING=yes TYPES=direct` (the kernel's own helpers
#                                          where exact, the headers' types where the fast pass
#                                          left them to the build) into OUT/series-run, run
#                                          first unless its summary.txt says it was made so.
#                                          Each patch gives the object code before and after
#                                          from OUT/buildcheck.json when there is one: run
#                                          make series, make series-buildcheck, make series.
#   make series-buildcheck TREE=... OUT=...  the series built before and after, in git copies
#                                          under SERIES_WORK/buildcheck: the touched files in
#                                          x86_64 allmodconfig and i386 allmodconfig
#                                          (i686-linux-gnu-gcc), the whole kernel in x86_64
#                                          defconfig; errors, warnings, and per touched file
#                                          the text size and the instructions that differ.
#                                          OUT/buildcheck.txt and OUT/buildcheck.json (read by
#                                          the series generator).  About 1.5 hours the first
#                                          time on 2 cores; later runs are incremental.
#   make census TREE=... OUT=...           which rewritten sites gcc and clang would miscompile
#                                          without -fno-strict-overflow: the touched files built
#                                          in x86_64 allmodconfig under CENSUS_WORK (once; then
#                                          incremental), the run made again with EVIDENCE=yes
#                                          into OUT/series-run (which make series then uses:
#                                          each patch gives its sites' evidence), and the
#                                          per-rule counts in OUT/census.txt (census.py).
#   make series-kunit TREE=... OUT=...     the header's KUnit suite (lib/wrapcmp_kunit.c) built
#                                          and run on UML by the tree's kunit.py, in a copy of
#                                          TREE with the header patch's changes; OUT/kunit.txt.
#                                          About 7 minutes the first time, on 2 cores.
#                                          WRAPCMP_HEADER=path tests that header instead.
#
# Variables: SERIES_CONFIDENCE (default moderate: the low sites are listed in the cover letter
# with both readings, not patched), SERIES_EXISTING (default yes) and SERIES_TYPES (default
# direct): the run's EXISTING= and TYPES=, SERIES_FLAGS (extra wrapcmp-series options, e.g.
# --merge-below 3 --split-above 8 --fresh), BUILDCHECK_FLAGS (e.g. --configs allmodconfig,i386
# to skip the two whole-kernel builds, --only 'drivers/net/', --max-files 20), SERIES_WORK
# (git copies of the tree and the build folder, kept between runs because deleting a kernel
# tree takes minutes here; default /var/cache/wrapcmp/series-work/NAME-OF-TREE), KUNIT_WORK (the
# copy series-kunit builds in, kept between runs so that a later run rebuilds only what
# changed; default /var/cache/wrapcmp/kunit-work/NAME-OF-TREE), CENSUS_WORK (census's build
# folders; default /var/cache/wrapcmp/census-work/NAME-OF-TREE).

TREE ?= /var/cache/wrapcmp/linux-source-6.1
OUT ?= out
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
SERIES_CONFIDENCE ?= moderate
SERIES_EXISTING ?= yes
SERIES_TYPES ?= direct
SERIES_RUN ?= $(OUT)/series-run
SERIES_FLAGS ?=
BUILDCHECK_FLAGS ?=
SERIES_WORK ?= /var/cache/wrapcmp/series-work/$(notdir $(patsubst %/,%,$(TREE)))
KUNIT_WORK ?= /var/cache/wrapcmp/kunit-work/$(notdir $(patsubst %/,%,$(TREE)))
CENSUS_WORK ?= /var/cache/wrapcmp/census-work/$(notdir $(patsubst %/,%,$(TREE)))

.PHONY: series series-buildcheck series-kunit census

# The run is made again unless its summary.txt has the confidence, EXISTING and TYPES
# settings of the series (a 'typed pass (direct, N files)' phase for TYPES=direct).
series: install-deps
	@{ grep -qx 'patch confidence: $(SERIES_CONFIDENCE) and above' '$(SERIES_RUN)/summary.txt' && \
	   grep -qx 'kernel helpers where exact (EXISTING): $(SERIES_EXISTING)' \
		'$(SERIES_RUN)/summary.txt' && \
	   { [ '$(SERIES_TYPES)' = off ] && ! grep -q 'typed pass (' '$(SERIES_RUN)/summary.txt' || \
	     grep -q 'typed pass ($(SERIES_TYPES),' '$(SERIES_RUN)/summary.txt'; }; } 2>/dev/null || \
		$(MAKE) --no-print-directory run TREE='$(TREE)' OUT='$(SERIES_RUN)' \
		CONFIDENCE='$(SERIES_CONFIDENCE)' EXISTING='$(SERIES_EXISTING)' TYPES='$(SERIES_TYPES)'
	scripts/wrapcmp-series --tree '$(TREE)' --run '$(SERIES_RUN)' --out '$(OUT)' \
		--confidence '$(SERIES_CONFIDENCE)' --existing '$(SERIES_EXISTING)' \
		--types '$(SERIES_TYPES)' --buildcheck '$(OUT)/buildcheck.json' \
		--work '$(SERIES_WORK)' $(SERIES_FLAGS)

series-buildcheck: install-deps
	@test -s '$(OUT)/series/0000-cover-letter.patch' || \
		$(MAKE) --no-print-directory series TREE='$(TREE)' OUT='$(OUT)'
	scripts/series-buildcheck --tree '$(TREE)' --series '$(OUT)/series' --out '$(OUT)' \
		--work '$(SERIES_WORK)' --jobs '$(JOBS)' $(BUILDCHECK_FLAGS)

series-kunit: install-deps
	scripts/wrapcmp-kunit --tree '$(TREE)' --out '$(OUT)' --work '$(KUNIT_WORK)' --jobs '$(JOBS)'

census: install-deps kernel-tree
	scripts/wrapcmp-census --tree '$(TREE)' --out '$(OUT)' --work '$(CENSUS_WORK)' \
		--jobs '$(JOBS)'
