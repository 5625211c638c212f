# The per-subsystem patch series (issue 5).  Included from the top Makefile.
#
#   make series TREE=... OUT=...           OUT/series/: cover letter, header patch, one patch
#                                          per maintained area, send.sh (never run); verified
#                                          with the tree's checkpatch.pl and git am.  Made from
#                                          `make run CONFIDENCE=$(SERIES_CONFIDENCE)` into
#                                          OUT/series-run, run first unless that folder holds
#                                          a run of that confidence.
#   make series-buildcheck TREE=... OUT=...  x86_64 allmodconfig + make prepare in a copy, then
#                                          every touched .c file's object before and after the
#                                          series; OUT/buildcheck.txt.  Tens of minutes.
#   make series-kunit TREE=... OUT=...     the header's KUnit suite (lib/wrapcmp_kunit.c) built
#                                          and run on UML by the tree's kunit.py, in a copy of
#                                          TREE with the header patch's changes; OUT/kunit.txt.
#                                          About 7 minutes the first time, on 2 cores.
#                                          WRAPCMP_HEADER=path tests that header instead.
#
# Variables: SERIES_CONFIDENCE (default moderate: the low sites are listed in the cover letter
# with both readings, not patched), SERIES_FLAGS (extra wrapcmp-series options, e.g.
# --merge-below 3 --split-above 8 --fresh), BUILDCHECK_FLAGS (e.g. --only 'drivers/net/' or --max-files 20), SERIES_WORK
# (git copies of the tree and the build folder, kept between runs because deleting a kernel
# tree takes minutes here; default /var/cache/wrapcmp/series-work/NAME-OF-TREE), KUNIT_WORK (the
# copy series-kunit builds in, kept between runs so that a later run rebuilds only what
# changed; default /var/cache/wrapcmp/kunit-work/NAME-OF-TREE).

TREE ?= /var/cache/wrapcmp/linux-source-6.1
OUT ?= out
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
SERIES_CONFIDENCE ?= moderate
SERIES_RUN ?= $(OUT)/series-run
SERIES_FLAGS ?=
BUILDCHECK_FLAGS ?=
SERIES_WORK ?= /var/cache/wrapcmp/series-work/$(notdir $(patsubst %/,%,$(TREE)))
KUNIT_WORK ?= /var/cache/wrapcmp/kunit-work/$(notdir $(patsubst %/,%,$(TREE)))

.PHONY: series series-buildcheck series-kunit

series: install-deps
	@grep -qx 'patch confidence: $(SERIES_CONFIDENCE) and above' '$(SERIES_RUN)/summary.txt' \
		2>/dev/null || $(MAKE) --no-print-directory run TREE='$(TREE)' OUT='$(SERIES_RUN)' \
		CONFIDENCE='$(SERIES_CONFIDENCE)'
	scripts/wrapcmp-series --tree '$(TREE)' --run '$(SERIES_RUN)' --out '$(OUT)' \
		--confidence '$(SERIES_CONFIDENCE)' --work '$(SERIES_WORK)' $(SERIES_FLAGS)

series-buildcheck: install-deps
	@test -s '$(OUT)/series/0000-cover-letter.patch' || \
		$(MAKE) --no-print-directory series TREE='$(TREE)' OUT='$(OUT)'
	scripts/series-buildcheck --tree '$(TREE)' --series '$(OUT)/series' --out '$(OUT)' \
		--work '$(SERIES_WORK)' --jobs '$(JOBS)' $(BUILDCHECK_FLAGS)

series-kunit: install-deps
	scripts/wrapcmp-kunit --tree '$(TREE)' --out '$(OUT)' --work '$(KUNIT_WORK)' --jobs '$(JOBS)'
