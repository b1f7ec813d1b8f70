# layers.sh — the source tree's layers (docs/architecture.md): each folder of src/ includes
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
# only its own layer's headers and those of the layers below, so there is no include cycle;
# and no src file is over 650 lines (aim: 600); and no two files call each other (below).
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
# Within a layer and across it, calls run one way too: a file listed first below calls none of
# the functions defined in the files after it (they sit above it and call it), so no two files
# call each other; and the suite calls nothing of cmd/ (cmd parses, the suite runs).
# funcs FILE...: the functions those files define for other files (not static)
funcs() { grep -hE '^[a-z]' "$@" | grep -vE '^(static|extern|typedef|struct [a-z_]+ \{|enum|union)' |
	sed -nE 's/^[a-z][a-z0-9_ ]*[ *]([a-z_][a-z0-9_]*)\(.*/\1/p' | sort -u; }
# calls LOWER UPPER...: the functions of UPPER... that LOWER calls (comments left out; a static
# function of LOWER's own by the same name is no call upward)
calls() {
	lower=$1; shift
	own=$(grep -hE '^[a-z]' "$lower" | sed -nE 's/^[a-z][a-z0-9_ ]*[ *]([a-z_][a-z0-9_]*)\(.*/\1/p')
	pat=$(funcs "$@" | grep -vxF "${own:-@}" | tr '\n' '|' | sed 's/|$//')
	[ -n "$pat" ] || return 0
	grep -vE '^[[:space:]]*(/?\*|//)' "$lower" | grep -oE "(^|[^a-z0-9_])($pat)\(" |
		sed -E 's/^[^a-z_]//; s/\($//' | sort -u | sed 's/^/ /' | tr -d '\n'
}
one_way() {
	name=$1; lower=$2; shift 2
	bad=$(calls "$lower" "$@")
	if [ -z "$bad" ]; then pass "layers/$name"
	else fail "layers/$name" "$lower calls$bad of $*"; fi
}
cd src
one_way compare-cell analysis/compare_cell.c analysis/compare.c analysis/compare_judge.c
one_way compare-judge analysis/compare_judge.c analysis/compare.c
one_way net-sock bench/net/net_sock.c bench/net/net.c bench/net/net_server.c bench/net/net_handlers.c
one_way net-server bench/net/net_server.c bench/net/net.c
one_way net-handlers bench/net/net_handlers.c bench/net/net_server.c bench/net/net.c
for b in results/store_db.c results/store_sqlite.c results/store_pg.c; do
	one_way "store-backend-$(basename $b .c)" $b results/store.c results/store_read.c
done
# the change points of plumb annotate speak to the databases through store_db.h alone
one_way store-cp results/store_cp.c results/store.c results/store_read.c
bad=""
for f in suite/*.c; do
	c=$(calls "$f" cmd/*.c)
	[ -z "$c" ] || bad="$bad $f:$c"
done
if [ -z "$bad" ]; then pass layers/suite-calls-no-cmd; else fail layers/suite-calls-no-cmd "$bad"; fi
cd ..

big=$(find src -name '*.[ch]' -exec wc -l {} + | awk '$2 != "total" && $1 > 650 { printf "%s(%d) ", $2, $1 }')
if [ -z "$big" ]; then pass layers/small-files; else fail layers/small-files "$big"; fi
