# SPDX-License-Identifier: GPL-2.0 OR MIT
# check-completion.bash K COMPLETION: scripts/check-cli.sh's bash half.
# Sources the completion and drives it as bash does (COMP_WORDS,
# COMP_CWORD), then checks what it holds against the binary K: every
# command it offers has help, every option that takes a value says so,
# every POOL kernel is one `run` knows.  Prints lines "ok DESC" or
# "not ok DESC" (check-cli.sh numbers them).
K=$1
source "$2" || { echo "not ok sourcing $2"; exit 0; }
# c WANT WORDS...: completing the last word gives exactly WANT
c() {
	local want=$1
	shift
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_kohaku
	local got="${COMPREPLY[*]}"
	if [ "$got" = "$want" ]; then
		echo "ok completion of '${*:2}': $want"
	else
		echo "not ok completion of '${*:2}': '$got', expected '$want'"
	fi
}
c "cdi clocks dxa examine fw help info list nodes reset run run-artifact sim top validate" "$K" ""
c "validate" "$K" va
c "run run-artifact" "$K" --map saxpy ru
c "pool_dxa pool pool_2x2" "$K" --map po
c "saxpy" "$K" --map = sax
c "mat-demo" "$K" --map mesh_2x2_8+2 run ma
c "crc32" "$K" run cr
c "info load" "$K" fw ""
c "trace stats knobs check inject" "$K" sim ""
c "set" "$K" help clocks ""
c "--quiet" "$K" --qu
c "--test" "$K" validate --te
c "mat,vec" "$K" validate --test mat,v
c "auto fixed" "$K" clocks set --mesh 0 --policy ""
c "sim kernel daemon" "$K" --backend ""
c "low" "$K" clocks set --profile l
d=$(mktemp -d)
touch "$d/image.fw"
c "$d/image.fw" "$K" --map saxpy fw load "$d/im"
c "$d/image.fw" "$K" -o "$d/im"
c "$d/image.fw" "$K" run-artifact "$d/im"
rm -rf "$d"

# the commands it offers are the CLI's (help CMD for each), the
# built-in cards are `list --backend sim`'s
_kohaku_load "$K"
bad=
for w in $_kohaku_cmds; do "$K" help "$w" >/dev/null 2>&1 || bad="$bad $w"; done
[ -z "$bad" ] && echo "ok every command offered has help: $(echo $_kohaku_cmds)" ||
	echo "not ok commands offered that kohaku does not know:$bad"
want=$("$K" list --backend sim | sed -n 's/^sim:\([^ ]*\).*/\1/p' | sort | tr '\n' ' ')
got=$(printf '%s\n' $_kohaku_maps | sort | tr '\n' ' ')
[ -n "$got" ] && [ "$got" = "$want" ] && echo "ok --map offers the built-in cards: $got" ||
	echo "not ok --map offers '$got', the built-in cards are '$want'"
# the options that take a value: the CLI's word for each option --help names
bad=
for o in $_kohaku_opts; do
	case $o in -h|--help|--version) continue ;; esac
	if "$K" --backend sim --device no-such-card-here info "$o" 2>&1 | grep -q -- "$o needs a value"; then
		case " $_kohaku_valopts " in *" $o "*) ;; *) bad="$bad $o(takes a value)" ;; esac
	else
		case " $_kohaku_valopts " in *" $o "*) bad="$bad $o(takes none)" ;; esac
	fi
done
[ -z "$bad" ] && echo "ok the options that take a value are the CLI's" ||
	echo "not ok options taking a value, completion vs CLI:$bad"
# the POOL kernels: each one run knows (no device: exit 3, not 2), each in
# help run's text
bad=
help_run=$("$K" help run KERNEL)
for k in $_kohaku_kernels; do
	"$K" --backend sim --device no-such-card-here run "$k" >/dev/null 2>&1
	[ $? -eq 3 ] && echo "$help_run" | grep -q "\\<$k\\>" || bad="$bad $k"
done
[ -z "$bad" ] && echo "ok every POOL kernel offered is one run knows" ||
	echo "not ok POOL kernels run does not know:$bad"
