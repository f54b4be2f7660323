#!/usr/bin/env bash
# Installs the release build of axon under a prefix (`make install` builds it and its man pages first):
#   PREFIX/bin/axon                                  the executable
#   PREFIX/share/axon/web/                           the live view's page (axon view serves it from there)
#   PREFIX/share/axon/datasets/…                     the sample recording `axon demo` replays by default
#   PREFIX/share/man/man1/axon*.1                    a man page per command
#   PREFIX/share/{bash-completion,zsh,fish}/…        shell completions
# The executable finds share/axon beside its bin directory, so it works from any working directory and without the
# repository or its build folder.
set -euo pipefail

prefix="${1:?usage: install.sh PREFIX}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
axon="$root/.build/release/axon"
manuals="$root/.build/plugins/GenerateManual/outputs/axon"
[ -x "$axon" ] || { echo "install: no $axon: run 'make install' (it builds first)" >&2; exit 1; }
[ -d "$manuals" ] || { echo "install: no man pages in $manuals: run 'make install'" >&2; exit 1; }

recording="datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"
install -D -m 755 "$axon" "$prefix/bin/axon"
install -d "$prefix/share/axon/web"
install -m 644 "$root"/Sources/AxonView/Web/* "$prefix/share/axon/web/"
install -D -m 644 "$root/$recording" "$prefix/share/axon/$recording"
install -d "$prefix/share/man/man1"
install -m 644 "$manuals"/*.1 "$prefix/share/man/man1/"
"$axon" --generate-completion-script bash | install -D -m 644 /dev/stdin "$prefix/share/bash-completion/completions/axon"
"$axon" --generate-completion-script zsh | install -D -m 644 /dev/stdin "$prefix/share/zsh/site-functions/_axon"
"$axon" --generate-completion-script fish | install -D -m 644 /dev/stdin "$prefix/share/fish/vendor_completions.d/axon.fish"
echo "install: axon in $prefix/bin, $(ls "$manuals"/*.1 | wc -l) man pages in $prefix/share/man/man1, completions for bash, zsh and fish"
