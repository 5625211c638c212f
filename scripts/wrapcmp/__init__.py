"""wrapcmp: the tooling around the Coccinelle rules of cocci/.

One module a job; the commands in scripts/ are thin entry points:

  scripts/wrapcmp-run     run.py: the tree-wide runner (OUT/report.txt, report.json,
                          wrapcmp.diff, summary.txt)
  scripts/macro-scan      macro_scan.py: the idiom inside #define bodies

Modules of the runner, in the order a run uses them:

  util.py        errors, logging, the repository's root, atomic file writes
  sources.py     the tree's .c/.h files, the default tree, the snapshot under generated names
  rules.py       the rules of cocci/ and their joined form for one parse per file
  prefilter.py   scripts/prefilter.c, built on first use
  parallel.py    GNU parallel with a job log, retries, timeouts and progress
  report_pass.py spatch in report mode over the snapshot
  patch_pass.py  spatch in patch mode, line ends kept, the unified diff
  outputs.py     the output files, the consistency check, the OUT lock
  apply.py       APPLY=1: the diff into the tree, all or nothing
"""
