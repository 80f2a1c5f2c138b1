#!/usr/bin/env bash
# Builds the Containerfile's image for real where no registry of base images is reachable: the base
# is a Debian bookworm root made by debootstrap, with this machine's Node.js (20.19 or newer) and
# npm, standing in for docker.io/library/node:20-bookworm-slim. Then it checks the image: its
# user, and the path of a generation inside it: serve, agent --once, haproxy -c.
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

# The image's checks, in a container of it, as its user: hapedge serve with the example cluster;
# hapedge agent --once against it, into the directory the manifests use (it checks the generation
# with the image's haproxy -c); haproxy -c again on both files HAProxy's container starts on.
run() { buildah run --isolation chroot --network host "$check" -- "$@"; }
check=$(buildah from "$IMAGE")
serve=
cleanup() {
  [ -z "$serve" ] || kill "$serve" 2>/dev/null || true
  [ -z "$serve" ] || wait "$serve" 2>/dev/null || true
  buildah rm "$check" >/dev/null 2>&1 || true
}
trap cleanup EXIT
fail() { echo "build-from-debian: $1; hapedge serve's log:" >&2; cat "$WORK/serve.log" >&2; exit 1; }
[ "$(buildah inspect --format '{{.OCIv1.Config.User}}' "$IMAGE")" = 10001:10001 ]
[ "$(run id -u)" = 10001 ]
haproxy_version=$(run haproxy -v)
echo "${haproxy_version%%$'\n'*}"
port=$((20000 + RANDOM % 20000))
buildah run --isolation chroot --network host "$check" -- hapedge serve --data /tmp/data --host 127.0.0.1 --port "$port" --example >"$WORK/serve.log" 2>&1 &
serve=$!
for _ in $(seq 1 120); do
  grep -q '^example cluster: .* generation ' "$WORK/serve.log" && break
  kill -0 "$serve" 2>/dev/null || fail 'hapedge serve stopped'
  sleep 1
done
grep -q '^example cluster: .* generation ' "$WORK/serve.log" || fail 'the example cluster was not committed'
curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null || fail 'hapedge serve does not answer /healthz'
token=$(cat "$(buildah mount "$check")/tmp/data/example-token")
buildah run --isolation chroot --network host --env HAPEDGE_TOKEN="$token" "$check" -- \
  hapedge agent --once --source "http://127.0.0.1:$port" --cluster example --dir /var/lib/hapedge || fail 'hapedge agent --once failed'
buildah run --isolation chroot --network host --workingdir /var/lib/hapedge "$check" -- haproxy -c -f /var/lib/hapedge/agent.cfg -f /var/lib/hapedge/current
echo "build-from-debian: $IMAGE built and checked: user 10001, hapedge serve, agent --once and haproxy -c on the generation it wrote"
