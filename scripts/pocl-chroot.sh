#!/usr/bin/env bash
# The suite on another Debian release's PoCL (docs/reliability.md, "PoCL 5 and 6"): a minimal chroot of
# that release (default trixie, Debian 13, PoCL 6.0), the build and ctest there with the arguments given
# (default: the whole suite, two at a time). scripts/debian-chroot.sh says how; RELEASE=... picks the
# release, CHROOT=... the folder. Needs root and Debian's mirror; the chroot stays for the next run.
STACK=pocl exec "$(dirname "$0")/debian-chroot.sh" "$@"
