#!/usr/bin/env bash
# The installer's entry point for Whisper models: the same code as `hark model fetch` (resume, pinned
# sha256, progress). Usage: scripts/fetch-model.sh base.en-q5_1 [--dir /var/lib/hark/models]
set -euo pipefail
exec node "$(dirname "$0")/../bin/hark.js" model fetch "$@"
