# Shared by the bench scripts: source it after setting -euo pipefail.

# need_apt installs Debian packages with apt-get (through sudo when not
# root), or stops with a line naming them where there is no apt-get.
need_apt() {
	if command -v apt-get >/dev/null 2>&1; then
		local sudo=""
		[ "$(id -u)" -ne 0 ] && sudo="sudo"
		$sudo apt-get install -y "$@" >/dev/null
	else
		echo "bench: please install $*" >&2
		exit 1
	fi
}
