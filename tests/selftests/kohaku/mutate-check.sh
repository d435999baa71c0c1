#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Deliberately broken job checkers (driver/core/kh_check*.c, ABI 0.8):
# each mutation below lets one kind of operand through that the checker
# must refuse (or, 13-16, a POOL unit's bounds must stop), and the runtime
# suites that try it (rt_reach, rt_mat, rt_vec, rt_pool, rt_bounds,
# rt_faults, in-process on the saxpy and pool maps) must then fail.
# Run from the repo top after `make firmware` (the POOL tests need it):
#
#   tests/selftests/kohaku/mutate-check.sh        # all mutations
#   tests/selftests/kohaku/mutate-check.sh 2 7    # those
#
# The tree is copied to a scratch directory (never touched), built once,
# and each mutant rebuilt there incrementally.  One line per mutation;
# exits nonzero if any survived.  Not part of `make test` (a few minutes).
#
# An equivalent mutant left out: kh_check_find()'s `addr >= end` as
# `addr > end` (an operand starting at a buffer's end is then found in it
# and refused by the length check instead, with the same errno and why).
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
scratch=$(mktemp -d /tmp/kh-mutate-check.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
only=" $* "

# id~file~description~perl substitution (applied with -0 to the whole file)
mutations() {
cat <<'M'
1~driver/core/kh_check.c~an operand one byte past its buffer taken~s/if \(!bo \|\| len > bo->end - addr\)/if (!bo || len > bo->end - addr + 1)/
2~driver/core/kh_check.c~the access a buffer was named with not looked at~s/if \(\(bo->access & access\) != access\)/if (0)/
3~driver/core/kh_check.c~y of a saxpy checked for reading only~s/"y", y, n \* 4, KOHAKU_JOB_BO_RW\)/"y", y, n * 4, KOHAKU_JOB_BO_READ)/
4~driver/core/kh_check.c~data sent to a POOL unit taken~s/else if \(t->cu_type == KH_CU_GP\)\n\t\twhy = "is a POOL unit: its firmware owns its buffers";\n//
5~driver/core/kh_check.c~0.7's form unchecked for anyone~s/if \(!a->flags && !a->n_bos && kf->admin\)/if (!a->flags && !a->n_bos)/
6~driver/core/kh_check.c~a range that wraps taken~s/if \(addr \+ len < addr \|\| addr \+ len - 1 < addr\)/if (0)/
7~driver/core/kh_check.c~a buffer named twice taken~s/if \(jb\[j\].handle == jb\[i\].handle\) \{/if (jb[j].handle == jb[i].handle && jb[i].flags == 7) {/
8~driver/core/kh_check_pool.c~a POOL output's probed last word not checked for reading~s/ret = kh_pool_bytes\(c, inst, op, what, lo, end - lo, KOHAKU_JOB_BO_READ\);/ret = kh_pool_bytes(c, inst, op, what, lo, end - lo, 0);/
9~driver/core/kh_check_pool.c~AXPY's y checked for reading only~s/"AXPY_F32 y", a2, n, rw\)/"AXPY_F32 y", a2, n, r)/
10~driver/core/kh_check_vec.c~a RUN on IMEM words an earlier job left taken~s/if \(!kh_vec_bit\(v->imem_set, p\)\)\n\t\t\treturn kh_vec_stale_word/if (0 && !kh_vec_bit(v->imem_set, p))\n\t\t\treturn kh_vec_stale_word/
11~driver/core/kh_check_mat.c~sub-tiles left in flight at a program's end taken~s/if \(fl.total && !c->admin\) \{/if (0) {/
12~driver/core/kh_check_mat.c~a FILL's last entry not checked~s/count \* entry,/(count - 1) * entry + 32,/
13~driver/core/kh_pool_bounds.c~POOL buffers that touch merged whatever their access~s/if \(n && f == end && c->reach\[i\] == acc\)/if (n && f == end)/
14~driver/core/kh_pool_bounds.c~a POOL unit granted no bounds~s/req\[k\].value = k < n \? pb->region\[k\] : pb->en;/req[k].value = k < n ? pb->region[k] : KH_POOL_BOUNDS_ALL;/
15~driver/core/kh_pool_bounds.c~BOUNDS_FAULT not looked at when a job leaves~s/if \(req\[1\].value & KH_POOL_BF_VALID\)/if (0)/
16~driver/core/kh_check.c~a POOL program's buffers not made its regions~s/if \(c->reach\)\n\t\treturn kh_pool_bounds_note/if (0)\n\t\treturn kh_pool_bounds_note/
M
}

echo "# copying the tree to $scratch and building it once"
(cd "$top" && tar --exclude=./build --exclude=./.git -cf - .) | (cd "$scratch" && tar -xf -)
mkdir -p "$scratch/build" && cp -a "$top/build/firmware" "$scratch/build/" 2>/dev/null
make -s -C "$scratch" -j2 userspace >"$scratch/build.log" 2>&1 || {
	echo "not ok - the unmutated tree does not build (see $scratch/build.log)"
	exit 1
}

run_suites() {
	fails=0
	for t in rt_reach rt_mat rt_vec rt_pool rt_bounds rt_faults; do
		for m in saxpy pool; do
			n=$(cd "$scratch" && KOHAKU_BACKEND=sim KOHAKU_SIM_CHECK=1 \
				KOHAKU_TEST_MAP=$m KOHAKU_FIRMWARE_PATH=build/firmware \
				KOHAKU_TEST_FW=build/firmware/pool.fw \
				timeout 300 build/tests/selftests/kohaku/$t 2>&1 | grep -c '^not ok')
			fails=$((fails + n))
		done
	done
	echo $fails
}

base=$(run_suites)
if [ "$base" -ne 0 ]; then
	echo "not ok - the unmutated suites fail ($base): fix them first"
	exit 1
fi

survived=0
n=0
mutations | while IFS='~' read -r id file what expr; do
	case $only in "  ") ;; *" $id "*) ;; *) continue ;; esac
	n=$((n + 1))
	cp "$scratch/$file" "$scratch/orig"
	perl -0pi -e "$expr" "$scratch/$file"
	if cmp -s "$scratch/$file" "$scratch/orig"; then
		echo "not ok $id - $what: the mutation no longer applies ($file changed?)"
		echo 1 >>"$scratch/survivors"
		continue
	fi
	if ! make -s -C "$scratch" -j2 userspace >"$scratch/build.log" 2>&1; then
		echo "not ok $id - $what: the mutant does not build"
		echo 1 >>"$scratch/survivors"
	else
		f=$(run_suites)
		if [ "$f" -gt 0 ]; then
			echo "ok $id - $what: killed ($f failing tests)"
		else
			echo "not ok $id - $what: SURVIVED"
			echo 1 >>"$scratch/survivors"
		fi
	fi
	cp "$scratch/orig" "$scratch/$file"
done
[ ! -s "$scratch/survivors" ]
