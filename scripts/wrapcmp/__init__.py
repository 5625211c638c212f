"""wrapcmp: the tooling around the Coccinelle rules of cocci/.

One module a job; the commands in scripts/ are thin entry points:

  scripts/wrapcmp-run          run.py: the tree-wide runner (OUT/report.txt, report.json,
                               report.sarif, wrapcmp.diff, summary.txt)
  scripts/macro-scan           macro_scan.py: the idiom inside #define bodies
  scripts/wrapcmp-check-patch  check_patch.py: does a patch add the idiom?
  scripts/wrapcmp-sarif        sarif.py: report.json as SARIF 2.1.0 (sarif_subset.py: what
                               GitHub and GitLab code scanning read of it)
  scripts/sarif-schema-fetch   sarif_schema.py: the SARIF schema for the validator
  scripts/wrapcmp-series       series.py: the per-subsystem patch series
  scripts/series-buildcheck    buildcheck.py: the series built before and after
  scripts/wrapcmp-kunit        kunit.py: the header's KUnit suite in a copy of a tree
  scripts/coccicheck-install   kernel_header.py: the rules and header into a kernel tree

Modules of the runner, in the order a run uses them:

  util.py        errors, logging, the repository's root, atomic file writes
  sources.py     the tree's .c/.h files, the default tree, the snapshot under generated names
  project.py     kernel tree or C project; a project's header and include spellings
  compile_commands.py  a project's compile_commands.json, as options for spatch
  typedefs.py    the typedefs of the headers a project's file includes, for the rules
  rules.py       the rules of cocci/ and their joined form for one parse per file
  prefilter.py   scripts/prefilter.c, built on first use
  cache.py       the result cache: per-file results keyed by all that decides them
  parallel.py    GNU parallel with a job log, retries, timeouts and progress
  report_pass.py spatch in report and patch mode at once over the snapshot
  trim.py        the copies spatch reads in the fast pass: bodies that hold no site blanked
  include_mirror.py  the tree's folders for spatch's -I under generated names
  diffs.py       the unified diff, line ends kept
  includes.py    #include <linux/wrapcmp.h>, placed where spatch 1.1.1 cannot
  outputs.py     the output files, the consistency check, the OUT lock
  apply.py       APPLY=1: the diff into the tree, all or nothing

Modules of the other commands: patchfile.py (reading a patch, for check_patch.py);
series_sites.py, series_groups.py, series_text.py, series_header.py (the series' sites,
its grouping into patches, its texts, its header patch); buildfiles.py (which files the
build check builds, and the object comparison).
"""
