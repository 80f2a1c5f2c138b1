#!/usr/bin/env bash
# Builds the Containerfile's image for real where no registry of base images is reachable: the base
# is a Debian bookworm root made by debootstrap, with this machine's Node.js (20.19 or newer) and
# npm, standing in for docker.io/library/node:20-bookworm-slim. Then it checks the image: its
# user, its haproxy, and `hapedge serve` answering over HTTP from inside it.
#
#   bash infra/image/build-from-debian.sh            (as root, on Debian bookworm; installs buildah and debootstrap)
#
# Needs the Debian archive and the npm registry (the build runs apt-get and npm ci). Where TLS is
# intercepted by a proxy, the machine's CA bundle is copied into the base and named by
# NODE_EXTRA_CA_CERTS, as npm on the machine itself needs it. Everything is kept under WORK
# (default /tmp/hapedge-image); images live in buildah's vfs storage, which works in a container.
set -euo pipefail
cd "$(dirname "$0")/../.."

WORK=${WORK:-/tmp/hapedge-image}
IMAGE=${IMAGE:-ghcr.io/hapedge/hapedge:$(node -p 'require("./package.json").version')}
BASE=localhost/hapedge-node-base:bookworm
export STORAGE_DRIVER=vfs

missing=()
command -v buildah >/dev/null || missing+=(buildah)
command -v debootstrap >/dev/null || [ -x /usr/sbin/debootstrap ] || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}"
fi
export PATH="$PATH:/usr/sbin"

node_bin=$(command -v node)
node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' ||
  { echo "build-from-debian: Node.js $(node -v) is older than 20.19" >&2; exit 1; }
npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")

root="$WORK/rootfs"
if [ ! -x "$root/usr/bin/apt-get" ]; then
  rm -rf "$root"
  mkdir -p "$WORK"
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
fi
# The archive's updates and security fixes too, as the official image's sources have them.
rm -f "$root/etc/apt/sources.list"
cat >"$root/etc/apt/sources.list.d/debian.sources" <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
install -D -m 755 "$node_bin" "$root/usr/local/bin/node"
rm -rf "$root/usr/local/lib/node_modules/npm"
mkdir -p "$root/usr/local/lib/node_modules"
cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
extra_ca=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  install -D -m 644 "$NODE_EXTRA_CA_CERTS" "$root/usr/local/share/hapedge-build/ca.crt"
  extra_ca=(--env NODE_EXTRA_CA_CERTS=/usr/local/share/hapedge-build/ca.crt)
fi
chroot "$root" /usr/local/bin/node --version >/dev/null

buildah rmi -f "$BASE" >/dev/null 2>&1 || true
container=$(buildah from scratch)
buildah copy --quiet "$container" "$root" / >/dev/null
buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${extra_ca[@]}" "$container"
buildah commit --quiet --rm "$container" "$BASE" >/dev/null

buildah build --isolation chroot --network host --layers=false --build-arg NODE_BASE="$BASE" -f Containerfile -t "$IMAGE" .

# The image's checks, each in a fresh container of it.
run() { buildah run --isolation chroot --network host "$check" -- "$@"; }
check=$(buildah from "$IMAGE")
trap 'buildah rm "$check" >/dev/null 2>&1 || true' EXIT
[ "$(buildah inspect --format '{{.OCIv1.Config.User}}' "$IMAGE")" = 10001:10001 ]
[ "$(run id -u)" = 10001 ]
haproxy_version=$(run haproxy -v)
echo "${haproxy_version%%$'\n'*}"
run hapedge --help >/dev/null
printf 'global\n  stats socket /tmp/s.sock\ndefaults\n  mode http\n  timeout client 5s\n  timeout server 5s\n  timeout connect 5s\nfrontend f\n  bind 127.0.0.1:8080\n' >"$WORK/check.cfg"
buildah copy --quiet --chown 10001:10001 "$check" "$WORK/check.cfg" /tmp/check.cfg >/dev/null
run haproxy -c -f /tmp/check.cfg
# hapedge serve on a loopback port, from the image's own files, answers its health check.
port=$((20000 + RANDOM % 20000))
buildah run --isolation chroot --network host "$check" -- hapedge serve --data /tmp/data --host 127.0.0.1 --port "$port" >"$WORK/serve.log" 2>&1 &
serve=$!
for _ in $(seq 1 60); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then break; fi
  sleep 1
done
answer=$(curl -fsS "http://127.0.0.1:$port/healthz" || true)
kill "$serve" 2>/dev/null || true
wait "$serve" 2>/dev/null || true
[ -n "$answer" ] || { echo "build-from-debian: hapedge serve in the image did not answer; its log:" >&2; cat "$WORK/serve.log" >&2; exit 1; }
echo "build-from-debian: $IMAGE built and checked: user 10001, haproxy -c, hapedge serve answered $answer"
