# Shared helpers for the vm/ and tests/ scripts.  Source it; do not run it.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=$TOP/build
# The kernel the series is for: 6.1 (Debian 12's) or 6.12 (Debian 13's,
# and Debian 12's backport).  Each has its tree, builds and results in a
# directory of its own, KB: build/6.12 for 6.12, and for 6.1 build/ itself.
KERNEL=${KERNEL:-6.1}
case $KERNEL in
6.1) KB=$B ;;
6.12) KB=$B/$KERNEL ;;
*) echo "KERNEL=$KERNEL: this project has series for 6.1 and 6.12" >&2; exit 1 ;;
esac
SRC=$KB/linux
KOUT=${KOUT:-$KB/kbuild}	# build/kbuild-debug for make test-debug
POUT=$KB/perf
# The test kernel's config fragments: vm/kernel.config, and what the kernel
# adds to it (vm/kernel-6.12.config).
KFRAGS="$TOP/vm/kernel.config"
[ ! -f "$TOP/vm/kernel-$KERNEL.config" ] || KFRAGS="$KFRAGS $TOP/vm/kernel-$KERNEL.config"

say() { printf '== %s\n' "$*"; }
warn() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { warn "$*"; exit 1; }

# build/linux's first commit: Debian's linux-source-$KERNEL as it came.
base_commit() { git -C "$SRC" rev-list --max-parents=0 HEAD | tail -n 1; }

# A worktree of build/linux at a commit (made the first time).
worktree_at() { # worktree commit
	if [ ! -e "$1/.git" ]; then
		git -C "$SRC" worktree prune
		git -C "$SRC" worktree add -q --detach "$1" "$2"
	fi
	git -C "$1" checkout -q --detach "$2"
}

# Build a commit of build/linux in a worktree of it, with the test config
# (options that the commit's tree does not define yet are left out), for
# make check-series and make bench's pristine kernel.  The log goes to
# OUT/build.log, its tail to stderr if the build fails.
build_commit() { # worktree out commit make-target...
	local wt=$1 out=$2 c=$3
	shift 3
	worktree_at "$wt" "$c"
	# shellcheck disable=SC2086
	KCONFIG_PREFIX=1 "$TOP/vm/kconfig" "$wt" "$out" $KFRAGS
	make -s -C "$wt" O="$out" CC="ccache gcc" -j"${JOBS:-$(nproc)}" "$@" \
		>"$out/build.log" 2>&1 || { tail -30 "$out/build.log" >&2; return 1; }
}

# Build a tree's tools/perf into OUT, without the parts this machine has no
# libraries for; the log goes to OUT/build.log, its tail to stderr if the
# build fails.
build_perf() { # tree out
	mkdir -p "$2"
	make -s -C "$1/tools/perf" O="$2" CC="ccache gcc" -j"${JOBS:-$(nproc)}" \
		NO_LIBBPF=1 NO_BPF_SKEL=1 NO_JVMTI=1 NO_LIBPERL=1 \
		>"$2/build.log" 2>&1 || { tail -40 "$2/build.log" >&2; return 1; }
}

# The non-comment, non-blank lines of a series file.
series_list() { # series-file
	[ -f "$1" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"
}

# A series' cover letter, first in its series file (vm/export-patches).
COVER=0000-cover-letter.patch

# The patches of a series file: its lines without the cover letter.
series_patches() { # series-file
	series_list "$1" | grep -vx "$COVER" || true
}

# The two areas: the kernel's series apply first, then perf's.  Each series
# is a directory of an area with its cover letter, its patches and its own
# series file; the area's series file lists every series' files as
# DIR/FILE, cover letter first, in the order they apply (vm/export-patches
# writes it).  In build/linux, the branch AREA/SERIES (kernel/core) points
# at the last commit of that series.  6.12's series are in the 6.12
# directory of each area, with their cover texts in Documentation/cover/6.12.
AREAS="kernel tools-perf"

area_dir() { # area
	case $KERNEL in
	6.1) echo "$TOP/$1-patches" ;;
	*) echo "$TOP/$1-patches/$KERNEL" ;;
	esac
}

# The cover text of a series (vm/export-patches).
cover_text() { # area/series
	local d=$TOP/Documentation/cover
	[ "$KERNEL" = 6.1 ] || d=$d/$KERNEL
	echo "$d/${1%%/*}-${1#*/}.txt"
}

# "area/series" for every series, in the order they apply.
all_series() {
	local a s
	for a in $AREAS; do
		for s in $(series_list "$(area_dir "$a")/series" |
			   sed -n 's,/.*,,p' | awk '!seen[$0]++'); do
			echo "$a/$s"
		done
	done
}

series_dir() { echo "$(area_dir "${1%%/*}")/${1#*/}"; } # area/series

# Whether the kernel has a series in the area (6.12 has no perf series yet).
has_series() { # area
	[ -n "$(series_list "$(area_dir "$1")/series")" ]
}
