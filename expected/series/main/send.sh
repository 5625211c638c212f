#!/bin/sh
# Written by scripts/wrapcmp-series; review the patches, then run it.
# Each patch carries its own To:/Cc: from its MAINTAINERS entry; the
# cover letter goes to the shared lists and the header's maintainers.
set -e
cd "$(dirname "$0")"
exec git send-email --thread --no-chain-reply-to --confirm=always \
	--suppress-cc=self "$@" \
	0000-cover-letter.patch \
	0001-include-linux-wrapcmp.h-add-wrap-safe-counter-compar.patch \
	0002-ticks-use-U32_CMP_LT-for-wrapping-counter-comparison.patch \
	0003-baz-use-U32_CMP_LT-for-wrapping-counter-comparisons.patch \
	0004-big-beta-use-U32_CMP_LE-and-U32_CMP_LT.patch \
	0005-foo-use-wrapcmp-helpers-for-counter-comparisons.patch \
	0006-lib-quxring-use-U32_CMP_GT-for-wrapping-counter-comp.patch \
	0007-bar-use-wrapcmp-helpers-for-counter-comparisons.patch \
	0008-tcp-use-U32_CMP_GT-and-before.patch \
	0009-smalla-use-U32_CMP_GT-for-wrapping-counter-compariso.patch \
	0010-smallb-use-U32_CMP_GE-for-wrapping-counter-compariso.patch \

