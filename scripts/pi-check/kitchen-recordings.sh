#!/usr/bin/env bash
# Kitchen recordings for pi-check's segment comparison: commands spoken by espeak-ng, with silence
# and a little kitchen noise (brown noise, a hum) around them, 16 kHz mono. Made once on the host.
#   scripts/pi-check/kitchen-recordings.sh DIR
set -euo pipefail
DIR="${1:?usage: kitchen-recordings.sh DIR}"
mkdir -p "$DIR"
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
i=0
for phrase in "set a timer for ten minutes" "add eggs and butter to the shopping list" "how long is left on the pasta timer"; do
  i=$((i + 1))
  espeak-ng -v en-us -s 150 -w "$T/say.wav" "$phrase"
  sox "$T/say.wav" -r 16000 -c 1 -b 16 "$T/say16.wav"
  # 1.5 s of quiet, the phrase, 2 s of quiet, the phrase again, 1.5 s of quiet; noise under it all.
  sox "$T/say16.wav" "$T/pad.wav" pad 1.5 2
  sox "$T/pad.wav" "$T/say16.wav" "$T/two.wav"
  sox "$T/two.wav" "$T/speech.wav" pad 0 1.5
  len="$(soxi -D "$T/speech.wav")"
  sox -R -n -r 16000 -c 1 -b 16 "$T/noise.wav" synth "$len" brownnoise vol 0.02 synth "$len" sine mix 120 vol 0.5
  sox -R -m "$T/speech.wav" "$T/noise.wav" -b 16 "$DIR/kitchen-$i.wav"
done
ls -l "$DIR"/kitchen-*.wav
