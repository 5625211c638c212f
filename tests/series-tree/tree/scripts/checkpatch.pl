#!/usr/bin/env perl
# SPDX-License-Identifier: GPL-2.0
# Stand-in for the kernel's checkpatch.pl in the synthetic test tree of
# tests/check-series, in the kernel's output format with --show-types:
#   ERROR   MISSING_SIGN_OFF, TRAILING_WHITESPACE
#   WARNING LONG_LINE (over 100 columns, lines with a string aside),
#           FILE_PATH_CHANGES (a new file, and the patch does not touch MAINTAINERS)
#   CHECK   (--strict only) PARENTHESIS_ALIGNMENT (a line after an added line that
#           ends in &&, || or a comma with an open parenthesis is not aligned with
#           it), MACRO_ARG_REUSE (an added #define of a header uses an argument
#           twice)
use strict;
use warnings;

# WRAPCMP_STANDIN_DELAY=seconds slows each call, so that tests/check-series can
# interrupt a series midway.
select(undef, undef, undef, $ENV{WRAPCMP_STANDIN_DELAY}) if $ENV{WRAPCMP_STANDIN_DELAY};

my $strict = grep { $_ eq '--strict' } @ARGV;

sub expand {
	my ($s) = @_;
	my $out = '';
	for my $c (split //, $s) {
		if ($c eq "\t") { $out .= ' ' x (8 - length($out) % 8); } else { $out .= $c; }
	}
	return $out;
}

# column after the last unclosed '(' of a line that ends in &&, || or a comma
sub open_paren {
	my ($text) = @_;
	return -1 unless $text =~ /(&&|\|\||,)\s*$/;
	(my $t = $text) =~ s/"(?:\\.|[^"\\])*"/'x' x length($&)/ge;
	my @stack;
	for my $i (0 .. length($t) - 1) {
		my $c = substr($t, $i, 1);
		push @stack, $i if $c eq '(';
		pop @stack if $c eq ')' && @stack;
	}
	return -1 unless @stack;
	return length(expand(substr($t, 0, $stack[-1] + 1)));
}

my ($errors, $warnings, $checks) = (0, 0, 0);
for my $p (grep { !/^--/ } @ARGV) {
	open(my $fh, '<', $p) or die "checkpatch.pl: $p: $!\n";
	my @l = <$fh>;
	close($fh);
	my $maintainers = grep { m{^\+\+\+ b/MAINTAINERS$} } @l;
	my ($file, $line, $signed, $n, $prev, $define) = ('', 0, 0, 0, '', '');
	for (@l) {
		$n++;
		chomp;
		$signed = 1 if /^\s*Signed-off-by: \S/;
		if (m{^\+\+\+ b/(\S+)}) { $file = $1; $prev = ''; next; }
		if (m{^--- /dev/null} && !$maintainers) {
			print "WARNING:FILE_PATH_CHANGES: added, moved or deleted file(s), does MAINTAINERS need updating?\n\n";
			$warnings++;
			next;
		}
		if (/^@@ -\d+(?:,\d+)? \+(\d+)/) { $line = $1; $prev = ''; next; }
		next unless $file;
		if (/^([+ ])(.*)$/) {
			my ($tag, $text) = ($1, $2);
			if ($tag eq '+' && $text =~ /\s$/) {
				print "ERROR:TRAILING_WHITESPACE: trailing whitespace\n#$n: FILE: $file:$line:\n$_\n\n";
				$errors++;
			}
			if ($tag eq '+' && length(expand($text)) > 100 && $text !~ /"/) {
				printf "WARNING:LONG_LINE: line length of %d exceeds 100 columns\n#$n: FILE: $file:$line:\n$_\n\n", length(expand($text));
				$warnings++;
			}
			if ($strict && $prev =~ /^\+(.*)$/) {
				my $want = open_paren($1);
				my ($ws) = $text =~ /^([ \t]*)/;
				if ($want >= 0 && length(expand($ws)) != $want) {
					print "CHECK:PARENTHESIS_ALIGNMENT: Alignment should match open parenthesis\n#$n: FILE: $file:$line:\n$prev\n$_\n\n";
					$checks++;
				}
			}
			if ($tag eq '+') {
				$define = $define ? "$define $text" : ($text =~ /^#\s*define\s+\w+\(/ ? $text : '');
				if ($define && $text !~ /\\$/) {
					if ($strict && $file =~ /\.h$/ &&
					    $define =~ /^#\s*define\s+\w+\(([^)]*)\)(.*)$/) {
						my ($args, $body) = ($1, $2);
						for my $a (map { s/^\s+|\s+$//gr } split /,/, $args) {
							my $count = () = $body =~ /\b\Q$a\E\b/g;
							if ($count > 1) {
								print "CHECK:MACRO_ARG_REUSE: Macro argument reuse '$a' - possible side-effects?\n#$n: FILE: $file:$line:\n$_\n\n";
								$checks++;
							}
						}
					}
					$define = '';
				}
			}
			$prev = $_;
			$line++;
		} else {
			$prev = '';
		}
	}
	unless ($signed) {
		print "ERROR:MISSING_SIGN_OFF: Missing Signed-off-by: line(s)\n\n";
		$errors++;
	}
	print "total: $errors errors, $warnings warnings, $checks checks\n";
}
exit($errors ? 1 : 0);
