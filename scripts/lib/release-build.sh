# shellcheck shell=bash
# The package's release build, one set of flags for every product, in a build directory of its own
# (.build-package): scripts/package, scripts/test-systemd and .ci/run all build with it, so building
# one product does not rebuild the others (scripts/bench and scripts/demo build `-c release` without
# these flags in .build; alternating flags there would rebuild everything each time).
#   --static-swift-stdlib       the Swift runtime and Foundation linked in: no toolchain needed to run
#   --disable-local-rpath       no RUNPATH $ORIGIN: SwiftPM adds it for libraries installed beside a
#                               program; moviesd has none, and in /usr/sbin it would only be a place
#                               to look for one
#   -Xlinker -z -Xlinker now    BIND_NOW: every symbol bound at start, so the whole GOT is read-only
#                               (full RELRO; lintian's hardening-no-bindnow)
# Usage: source scripts/lib/release-build.sh; "${release[@]}" --product moviesd
release=(swift build -c release --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now --scratch-path .build-package)
