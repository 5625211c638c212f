#!/usr/bin/env perl
# SPDX-License-Identifier: GPL-2.0
# Stand-in for the kernel's get_maintainer.pl in the synthetic test tree of
# tests/check-series: same output format with --rolestats, same F:/X: glob rules,
# no git.  Usage: get_maintainer.pl [--nogit --nogit-fallback --rolestats] PATCH|-f FILE...
use strict;
use warnings;

my ($from_files, @args) = (0);
for my $a (@ARGV) {
	if ($a eq '-f') { $from_files = 1; }
	elsif ($a =~ /^--/) { }
	else { push @args, $a; }
}
my @files;
if ($from_files) {
	@files = @args;
} else {
	for my $p (@args) {
		open(my $fh, '<', $p) or die "get_maintainer.pl: $p: $!\n";
		while (<$fh>) {
			push @files, $1 if m{^\+\+\+ b/(\S+)};
		}
		close($fh);
	}
}

my (@sections, $cur);
open(my $m, '<', 'MAINTAINERS') or die "get_maintainer.pl: no MAINTAINERS here\n";
while (<$m>) {
	chomp;
	if (/^([A-Z]):\s*(.*)$/ && $cur) {
		push @{$cur->{$1}}, $2;
	} elsif (/^\S/) {
		$cur = { name => $_ };
		push @sections, $cur;
	}
}
close($m);

sub pattern {
	my ($v) = @_;
	my $isdir = -d $v;
	$v =~ s/\./\\./g;
	$v =~ s/\*/.*/g;
	$v =~ s/\?/./g;
	$v .= '/' if $isdir && $v !~ m{/$};
	return $v;
}

sub match {
	my ($file, $p) = @_;
	return $file =~ m{^$p} if $p =~ m{/$};
	return 0 unless $file =~ m{^$p};
	return ($file =~ tr{/}{}) == ($p =~ tr{/}{});
}

my (%seen, @out);
for my $file (@files) {
	for my $s (@sections) {
		next unless $s->{F};
		next if grep { match($file, pattern($_)) } @{$s->{X} || []};
		next unless grep { match($file, pattern($_)) } @{$s->{F}};
		my $status = lc(($s->{S} || ['maintained'])->[0]);
		my $role = $status eq 'supported' ? 'supporter'
			 : $status eq 'odd fixes' ? 'odd fixer' : 'maintainer';
		for my $who (@{$s->{M} || []}) {
			push @out, "$who ($role:$s->{name})" unless $seen{$who}++;
		}
		for my $who (@{$s->{R} || []}) {
			push @out, "$who (reviewer:$s->{name})" unless $seen{$who}++;
		}
		for my $l (@{$s->{L} || []}) {
			push @out, "$l (open list:$s->{name})" unless $seen{$l}++;
		}
	}
}
print "$_\n" for @out;
