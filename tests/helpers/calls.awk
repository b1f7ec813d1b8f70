# calls.awk — the call graph between the .c files given (tests/cli/layers.sh).
# A function is defined where a line at column 0 opens it and a "{" at column 0 follows (the
# house style); one not marked static is callable from other files. A file calls another when,
# comments and strings left out, it names one of that file's functions followed by "(" and has
# no static function of its own by that name. Prints one line for each function over MAXLEN
# lines (from its opening line to its closing brace at column 0):
#   long FILE:LINE NAME LINES
# one line for each function a file calls in another:
#   call FILE OTHER-FILE FUNC
# and one line for every group of files that call each other, directly or round a cycle:
#   circle FILE FILE... (via FILE:FUNC FILE:FUNC ...)
function strip(s,    out, i, c, n) {
	# comments (also across lines: incomment), string and character literals left out
	out = ""; n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (incomment) {
			if (c == "*" && substr(s, i + 1, 1) == "/") { incomment = 0; i++ }
			continue
		}
		if (c == "/" && substr(s, i + 1, 1) == "*") { incomment = 1; i++; continue }
		if (c == "/" && substr(s, i + 1, 1) == "/") break
		if (c == "\"" || c == "'") {
			for (i++; i <= n && substr(s, i, 1) != c; i++)
				if (substr(s, i, 1) == "\\") i++
			out = out " "
			continue
		}
		out = out c
	}
	return out
}
FNR == 1 { nfiles++; file[nfiles] = FILENAME; inf = 0; incomment = 0; sig = 0 }
{
	line = strip($0)
	if (!inf && line ~ /^[A-Za-z_]/) { sig = FNR; sigline = line }
	if (!inf && line ~ /^\{/ && sig) {
		inf = 1; start = sig
		nm = sigline; sub(/^__attribute__[ \t]*\(\([^)]*\)\)[ \t]*/, "", nm)
		isstatic = nm ~ /^static[ \t]/
		sub(/\(.*/, "", nm); sub(/.*[ *]/, "", nm)
		if (isstatic || nm == "main") own[FILENAME, nm] = 1
		else if (!(nm in def)) def[nm] = FILENAME
		else def[nm] = def[nm] " " FILENAME
		fname[FILENAME, start] = nm
	}
	if (inf && line ~ /^\}/) {
		if (FNR - start + 1 > maxlen)
			printf "long %s:%d %s %d\n", FILENAME, start, fname[FILENAME, start], FNR - start + 1
		inf = 0; sig = 0
	}
	# every identifier followed by "(" (a call, or a declaration: both name the function)
	while (match(line, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
		w = substr(line, RSTART, RLENGTH); sub(/[ \t]*\($/, "", w)
		used[FILENAME, w] = 1
		line = substr(line, RSTART + RLENGTH)
	}
}
END {
	for (k in used) {
		split(k, p, SUBSEP); f = p[1]; w = p[2]
		if (!(w in def) || ((f, w) in own)) continue
		nd = split(def[w], ds, " ")
		for (j = 1; j <= nd; j++) {
			g = ds[j]
			if (g == f) continue
			if (!((f, g) in edge)) { edge[f, g] = w; out[f] = out[f] " " g }
			printf "call %s %s %s\n", f, g, w
		}
	}
	# reach[a, b]: b is reached from a (a breadth-first walk from every file)
	for (i = 1; i <= nfiles; i++) {
		a = file[i]; head = 1; tail = 0
		q[++tail] = a
		while (head <= tail) {
			x = q[head++]
			n = split(out[x], nb, " ")
			for (j = 1; j <= n; j++)
				if (!((a, nb[j]) in reach)) { reach[a, nb[j]] = 1; q[++tail] = nb[j] }
		}
	}
	for (i = 1; i <= nfiles; i++) {
		a = file[i]
		if (a in done || !((a, a) in reach)) continue
		grp = a; via = ""
		for (j = 1; j <= nfiles; j++) {
			b = file[j]
			if (b != a && ((a, b) in reach) && ((b, a) in reach)) { grp = grp " " b; done[b] = 1 }
		}
		n = split(grp, gs, " ")
		for (j = 1; j <= n; j++)
			for (l = 1; l <= n; l++)
				if ((gs[j], gs[l]) in edge) via = via " " gs[j] ":" edge[gs[j], gs[l]] "->" gs[l]
		done[a] = 1
		printf "circle %s (via%s)\n", grp, via
	}
}
