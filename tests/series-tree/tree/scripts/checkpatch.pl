#!/usr/bin/env perl
# SPDX-License-Identifier: GPL-2.0
# Stand-in for the kernel's checkpatch.pl in the synthetic test tree of
# tests/check-series.  It knows four checks, in the kernel's output format with
# --show-types: MISSING_SIGN_OFF and TRAILING_WHITESPACE (ERROR), LONG_LINE over
# 100 columns and FILE_PATH_CHANGES for a new file (WARNING).
use strict;
use warnings;

# WRAPCMP_STANDIN_DELAY=seconds slows each call, so that tests/check-series can
# interrupt a series midway.
select(undef, undef, undef, $ENV{WRAPCMP_STANDIN_DELAY}) if $ENV{WRAPCMP_STANDIN_DELAY};

my ($errors, $warnings) = (0, 0);
for my $p (grep { !/^--/ } @ARGV) {
	open(my $fh, '<', $p) or die "checkpatch.pl: $p: $!\n";
	my @l = <$fh>;
	close($fh);
	my ($file, $line, $signed, $n) = ('', 0, 0, 0);
	for (@l) {
		$n++;
		chomp;
		$signed = 1 if /^\s*Signed-off-by: \S/;
		if (m{^\+\+\+ b/(\S+)}) { $file = $1; next; }
		if (m{^--- /dev/null}) {
			print "WARNING:FILE_PATH_CHANGES: added, moved or deleted file(s), does MAINTAINERS need updating?\n\n";
			$warnings++;
			next;
		}
		if (/^@@ -\d+(?:,\d+)? \+(\d+)/) { $line = $1; next; }
		next unless $file;
		if (/^\+(.*)$/) {
			my $text = $1;
			if ($text =~ /\s$/) {
				print "ERROR:TRAILING_WHITESPACE: trailing whitespace\n#$n: FILE: $file:$line:\n$_\n\n";
				$errors++;
			}
			(my $t = $text) =~ s/\t/        /g;
			if (length($t) > 100) {
				printf "WARNING:LONG_LINE: line length of %d exceeds 100 columns\n#$n: FILE: $file:$line:\n$_\n\n", length($t);
				$warnings++;
			}
			$line++;
		} elsif (/^ /) {
			$line++;
		}
	}
	unless ($signed) {
		print "ERROR:MISSING_SIGN_OFF: Missing Signed-off-by: line(s)\n\n";
		$errors++;
	}
	print "total: $errors errors, $warnings warnings\n";
}
exit($errors ? 1 : 0);
