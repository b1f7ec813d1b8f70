# layers.sh — the source tree's layers (docs/architecture.md): each folder of src/ includes
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
# only its own layer's headers and those of the layers below, so there is no include cycle;
# no src file is over 650 lines (aim: 600), no function over 80; and no two files call each
# other, directly or round a cycle (below).
. tests/lib.sh
allowed() {
	case $1 in
	core) echo "core" ;;
	bench) echo "core bench" ;;
	results) echo "core results" ;;
	analysis) echo "core results analysis" ;;
	suite) echo "core bench results analysis suite" ;;
	cmd) echo "core bench results analysis suite cmd" ;;
	esac
}
for layer in core bench results analysis suite cmd; do
	ok=$(allowed $layer)
	bad=""
	for inc in $(grep -rhoE '^#include "[a-z]+/' "src/$layer" | sed 's/#include "//; s#/##' | sort -u); do
		case " $ok " in *" $inc "*) ;; *) bad="$bad $inc" ;; esac
	done
	if [ -z "$bad" ]; then pass "layers/$layer"
	else fail "layers/$layer" "includes$bad: $(grep -rlE "^#include \"($(echo $bad | tr ' ' '|'))/" "src/$layer" | tr '\n' ' ')"; fi
done
# Calls run one way too, within a layer and across it: no two files call each other, directly
# or round a longer cycle (tests/helpers/calls.awk finds every group of files that do); the
# suite calls nothing of cmd/ (cmd parses, the suite runs); and no function is over 80 lines
# (from its opening line at column 0 to its closing brace at column 0).
graph=$(awk -v maxlen=80 -f tests/helpers/calls.awk $(find src -name '*.c' | sort))
circles=$(printf '%s\n' "$graph" | sed -n 's/^circle //p')
if [ -z "$circles" ]; then pass layers/no-call-circles
else fail layers/no-call-circles "files that call each other: $(echo "$circles" | tr '\n' ';')"; fi
long=$(printf '%s\n' "$graph" | sed -n 's/^long \([^ ]*\) \([^ ]*\) \([0-9]*\)$/\1 \2(\3)/p')
if [ -z "$long" ]; then pass layers/short-functions
else fail layers/short-functions "over 80 lines: $(echo "$long" | tr '\n' ' ')"; fi
bad=$(printf '%s\n' "$graph" | awk '$1 == "call" && $2 ~ /^src\/suite\// && $3 ~ /^src\/cmd\// { printf " %s:%s", $2, $4 }')
if [ -z "$bad" ]; then pass layers/suite-calls-no-cmd; else fail layers/suite-calls-no-cmd "$bad"; fi

# The checks above must see what they look for: four made-up files that call each other round
# a cycle (a calls b, b c, c d, d a) and a made-up function of 81 lines are found.
mkdir -p "$T/circle"
printf 'int b(void);\nint a(void)\n{\n\treturn b();\n}\n' >"$T/circle/a.c"
{ printf 'int c(void);\nint b(void)\n{\n'; i=0; while [ $i -lt 77 ]; do echo '	c();'; i=$((i + 1)); done
  printf '\treturn c();\n}\n'; } >"$T/circle/b.c"
printf 'int d(void);\nint c(void)\n{\n\treturn d();\n}\n' >"$T/circle/c.c"
printf 'int a(void);\nint d(void)\n{\n\treturn a();\n}\n' >"$T/circle/d.c"
self=$(cd "$T/circle" && awk -v maxlen=80 -f "$OLDPWD/tests/helpers/calls.awk" a.c b.c c.c d.c)
if printf '%s\n' "$self" | grep -q '^circle a.c b.c c.c d.c ' &&
   printf '%s\n' "$self" | grep -qx 'long b.c:2 b 81'; then
	pass layers/checks-see-a-cycle-and-a-long-function
else
	fail layers/checks-see-a-cycle-and-a-long-function "calls.awk said: $(echo $self)"
fi

big=$(find src -name '*.[ch]' -exec wc -l {} + | awk '$2 != "total" && $1 > 650 { printf "%s(%d) ", $2, $1 }')
if [ -z "$big" ]; then pass layers/small-files; else fail layers/small-files "$big"; fi
