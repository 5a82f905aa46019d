#!/bin/sh
# Installs recall-feed with npm (a packed tarball, or a clone) and writes its systemd units with the path npm gave the launcher (docs/deploy.md).
set -eu

usage='usage: deploy/install-systemd.sh <recall-feed-<version>.tgz | clone folder> [unit folder, default /etc/systemd/system]'
source=${1:?$usage}
unit_dir=${2:-/etc/systemd/system}
here=$(cd "$(dirname "$0")" && pwd)

# A bare name would make npm ask the registry, where recall-feed is not ours: only a file or a folder.
case $source in
  /* | ./* | ../*) ;;
  *) source=./$source ;;
esac
[ -e "$source" ] || { echo "error: $source does not exist" >&2; echo "$usage" >&2; exit 2; }
[ -d "$unit_dir" ] || { echo "error: $unit_dir is not a folder" >&2; exit 2; }

npm install -g "$source"

# npm's global bin folder differs between systems (/usr/bin with Debian's npm, /usr/local/bin with
# nodejs.org's, or any --prefix): ask npm where it put the launcher rather than guess.
bin="$(npm prefix -g)/bin/recall-feed"
[ -x "$bin" ] || { echo "error: npm reported no launcher at $bin" >&2; exit 1; }
# The path goes into ExecStart unquoted: keep to characters systemd and sed read literally.
case $bin in
  *[!A-Za-z0-9/._+-]*) echo "error: $bin has characters ExecStart cannot take unquoted; install with a plainer npm prefix" >&2; exit 2 ;;
esac

sed "s|^ExecStart=/usr/local/bin/recall-feed |ExecStart=$bin |" "$here/systemd/recall-feed-sync.service" \
  >"$unit_dir/recall-feed-sync.service"
grep -q "^ExecStart=$bin " "$unit_dir/recall-feed-sync.service" ||
  { echo "error: found no ExecStart=/usr/local/bin/recall-feed line to point at $bin" >&2; exit 1; }
cp "$here/systemd/recall-feed-sync.timer" "$unit_dir/recall-feed-sync.timer"
echo "recall-feed-sync.service and .timer written to $unit_dir, running $bin"
