# layers.sh — the source tree's layers (docs/architecture.md): each folder of src/ includes
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
# only its own layer's headers and those of the layers below, so there is no include cycle;
# and no src file is over 650 lines (aim: 600).
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
big=$(find src -name '*.[ch]' -exec wc -l {} + | awk '$2 != "total" && $1 > 650 { printf "%s(%d) ", $2, $1 }')
if [ -z "$big" ]; then pass layers/small-files; else fail layers/small-files "$big"; fi
