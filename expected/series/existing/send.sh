#!/bin/sh
# Written by scripts/wrapcmp-series; review the patches, then run it.
# Each patch carries its own To:/Cc: from its MAINTAINERS entry; the
# cover letter goes to the shared lists and the header's maintainers.
set -e
cd "$(dirname "$0")"
exec git send-email --thread --no-chain-reply-to --confirm=always \
	--suppress-cc=self "$@" \
	0000-cover-letter.patch \
	0001-watchdog-wdt_tick-use-the-kernel-s-helpers-for-wrapp.patch \
	0002-tcp-use-before-for-wrapping-counter-comparisons.patch \

