# lmbench_getsummary.sh — lmbench 3's own summary script (scripts/getsummary, perl) reads plumb's
# `export --format lmbench` file and prints the cells `plumb summary` prints.
# Runs where PLUMB_LMBENCH_SRC names an lmbench 3 source tree (its scripts/getsummary) and perl
# exists; skips, saying which is missing, elsewhere (CI has no lmbench). The run it reads is
# PLUMB_GETSUMMARY_RUN (a plumb run file: a whole `plumb run` covers every table), else a
# `plumb run --quick` of the cheap families measured here (seconds).
. tests/lib.sh
GS=${PLUMB_LMBENCH_SRC:-}/scripts/getsummary
if [ -z "${PLUMB_LMBENCH_SRC:-}" ]; then
	skip lmbench-getsummary "PLUMB_LMBENCH_SRC is not set (an lmbench 3 source tree with scripts/getsummary)"
	exit 0
fi
if [ ! -f "$GS" ]; then
	skip lmbench-getsummary "no scripts/getsummary under PLUMB_LMBENCH_SRC=$PLUMB_LMBENCH_SRC"
	exit 0
fi
if ! command -v perl >/dev/null 2>&1; then
	skip lmbench-getsummary "no perl to run lmbench's getsummary"
	exit 0
fi

RUN=${PLUMB_GETSUMMARY_RUN:-}
if [ -z "$RUN" ]; then
	RUN=$T/run.json
	"$PLUMB" run --quick --only sys,ipc,ctx,proc,ops --no-store -o "$RUN" >"$T/run.out" 2>&1
fi
# getsummary takes the host from the file's name and the description from its folder's
mkdir -p "$T/res/x86_64-linux"
LM=$T/res/x86_64-linux/host.0
"$PLUMB" export "$RUN" --format lmbench -o "$LM" 2>"$T/export.err"
check lmbench-getsummary/export test -s "$LM"
perl "$GS" "$LM" >"$T/gs.sum" 2>"$T/gs.err"
check lmbench-getsummary/runs grep -q '^Basic system parameters' "$T/gs.sum"

# The Host (columns 1-9) and Description (25-47 of the first table) come from the file's path.
mask() {
	awk '/^$/ { rows = 0; basic = 0; print; next }
	/^Basic system parameters$/ { basic = 1 }
	/^--------- / { rows = 1; print; next }
	rows { $0 = "HOST_____" substr($0, 10)
	       if (basic) $0 = substr($0, 1, 24) sprintf("%23s", "DESC") substr($0, 48) }
	{ print }' "$1"
}
# cells GETSUMMARY PLUMB MODE: every table getsummary prints is in plumb's, and each of its cells
# (by the column it ends in) is plumb's. MODE same: the same text, except a K or M cell, which
# lmbench cuts ("15.6K" to "15.K") and plumb rounds to fit ("16K", summary.c num()): equal
# within one unit of the cell's last digit. MODE run: numbers equal up to the roundings between
# them (each cell's last digit, the export's 2 decimals: 0.005), or 0.5 %; Main mem and Rand mem
# are not compared (below).
cells() {
	perl -e '
	sub tables { my ($f) = @_; my (%t, $title, $hdr, $rows); open(my $h, "<", $f) or die;
		my @l = <$h>; chomp @l;
		for my $i (0 .. $#l) {
			if ($l[$i] =~ /^-+$/ && $i > 0) { $title = $l[$i - 1]; $hdr = ""; $rows = 0; next }
			next unless defined $title;
			if ($l[$i] =~ /^--------- /) { $rows = 1; next }
			if ($l[$i] eq "") { undef $title; next }
			if ($rows) { $t{$title} = [$hdr, $l[$i]] } else { $hdr .= $l[$i] . "\n" }
		}
		return \%t }
	sub cells { my ($s) = @_; my %c; while ($s =~ /(\S+)/g) { $c{pos($s)} = $1 } return \%c }
	sub val { my ($s) = @_; return undef unless $s =~ /^([0-9]*\.?([0-9]*))([KM]?)$/ && $1 ne ".";
		my $m = $3 eq "K" ? 1e3 : $3 eq "M" ? 1e6 : 1;
		return ($1 * $m, 10 ** -length($2) * $m, $3 ne "") }
	my ($mode, $g, $p) = ($ARGV[2], tables($ARGV[0]), tables($ARGV[1])); my ($n, $bad) = (0, 0);
	for my $title (sort keys %$g) {
		if (!$p->{$title}) { print "missing table: $title\n"; $bad++; next }
		my ($hdr, $row) = @{$g->{$title}}; my ($gc, $pc) = (cells($row), cells($p->{$title}[1]));
		my @skip;
		if ($mode eq "run") { for my $w ("Main mem", "Rand mem") {
			my $k = index($hdr, $w); push @skip, [$k, $k + 12] if $k >= 0 } }
		for my $end (sort { $a <=> $b } keys %$gc) {
			next if $end <= 9 || grep { $end > $_->[0] && $end <= $_->[1] } @skip;
			my ($a, $b) = ($gc->{$end}, $pc->{$end}); $n++;
			next if defined $b && $a eq $b;
			my ($va, $ua, $ka) = val($a); my ($vb, $ub, $kb) = defined $b ? val($b) : ();
			my $ok = 0;
			if (defined $va && defined $vb) {
				my $d = abs($va - $vb);
				if ($mode eq "same") { $ok = ($ka || $kb) && $d <= ($ua > $ub ? $ua : $ub) + 1e-9 }
				else { $ok = $d <= $ua + $ub + 0.005 + 1e-9 || $d <= 0.005 * $vb }
			}
			if (!$ok) { printf "%s: getsummary %s, plumb %s\n", $title, $a, $b // "none"; $bad++ }
		}
	}
	print "cells $n, differ $bad\n"; exit($bad ? 1 : 0);
	' "$1" "$2" "$3" >"$T/cells.$3" 2>&1
}
mask "$T/gs.sum" >"$T/a"

# 1. the exported file, read by both: the same tables and cells
"$PLUMB" summary "$LM" >"$T/plumb-lm.sum" 2>/dev/null
mask "$T/plumb-lm.sum" >"$T/b"
if cells "$T/a" "$T/b" same; then
	pass "lmbench-getsummary/export-read-alike ($(tail -n1 "$T/cells.same"))"
else
	fail lmbench-getsummary/export-read-alike "$(head -4 "$T/cells.same" | tr '\n' '|')"
fi

# 2. getsummary of the export against `plumb summary` of the run itself. Main mem and Rand mem
# differ by design: plumb's summary of a plumb run takes them at the first size of at least 4x
# the last-level cache (its note says so), lmbench at the largest size the series reached.
"$PLUMB" summary "$RUN" >"$T/plumb.sum" 2>/dev/null
mask "$T/plumb.sum" >"$T/c"
if cells "$T/a" "$T/c" run; then
	pass "lmbench-getsummary/same-cells-as-summary ($(tail -n1 "$T/cells.run"))"
else
	fail lmbench-getsummary/same-cells-as-summary "$(head -4 "$T/cells.run" | tr '\n' '|')"
fi
