# The shared start of the lab test scripts (sourced, with the script's arguments): labs = the absolute
# path of $1 (<build>/labs), a work directory removed at exit and entered, the counters, and fail().
labs=$(cd "$1" && pwd)
tests=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) # the tests' sources, before the cd below
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0
passed=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
