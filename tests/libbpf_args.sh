# tests/libbpf_args.sh - would libbpf's USDT argument parser accept every
# probe of a binary?  A transcription of the operand forms parse_usdt_arg()
# in libbpf's usdt.c accepts, per architecture: a probe with one
# unparseable argument cannot be attached.
#   libbpf_check BINARY ARCH     prints the bad ones; status 1 if any
libbpf_check() {
	local bin=$1 arch=$2 bad=0 sz='-?[1248]' args a
	local x86 aarch64 riscv arm s390
	x86="^$sz@(\\\$-?[0-9]+|%[a-z0-9]+|-?[0-9]*\\(%[a-z0-9]+\\)|-?[0-9]*\\(%[a-z0-9]+,%[a-z0-9]+,[1248]\\))\$"
	aarch64="^$sz@(\\[[a-z0-9]+, *-?[0-9]+\\]|\\[[a-z0-9]+\\]|-?[0-9]+|[a-z][a-z0-9]*)\$"
	riscv="^$sz@(-?[0-9]+\\([a-z0-9]+\\)|-?[0-9]+|[a-z][a-z0-9]*)\$"
	arm="^$sz@(\\[[a-z0-9]+, *#-?[0-9]+\\]|\\[[a-z0-9]+\\]|#-?[0-9]+|[a-z][a-z0-9]*)\$"
	s390="^$sz@(-?[0-9]+\\(%r[0-9]+\\)|%r[0-9]+|-?[0-9]+)\$"
	case $arch in
	x86_64|i386) re=$x86 ;; aarch64) re=$aarch64 ;; riscv64) re=$riscv ;;
	arm) re=$arm ;; s390x) re=$s390 ;; *) echo "no rules for $arch"; return 1 ;;
	esac
	while read -r args; do
		set -f
		for a in $args; do
			[[ $a =~ $re ]] || { echo "libbpf cannot parse '$a' ($arch)"; bad=1; }
		done
		set +f
		[ $(wc -w <<< "$args") -le 12 ] || { echo "more than 12 arguments"; bad=1; }
	done < <(readelf -nW "$bin" | sed -n 's/^ *Arguments: *//p')
	return $bad
}
