// Just enough of a WAV reader for the files this server writes (16-bit PCM mono, 44-byte header),
// tolerant of extra chunks so a file from elsewhere still draws.

export function parseWav(buffer) {
  const view = new DataView(buffer);
  const tag = (at) => String.fromCharCode(view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2), view.getUint8(at + 3));
  if (buffer.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('not a WAV file');
  let sampleRate = 16000;
  let bits = 16;
  let channels = 1;
  let at = 12;
  while (at + 8 <= buffer.byteLength) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const start = at + 8;
    if (id === 'fmt ') {
      channels = view.getUint16(start + 2, true);
      sampleRate = view.getUint32(start + 4, true);
      bits = view.getUint16(start + 14, true);
    } else if (id === 'data') {
      if (bits !== 16 || channels !== 1) throw new Error(`unsupported WAV: ${bits}-bit, ${channels} channel(s)`);
      const n = Math.floor(Math.min(size, buffer.byteLength - start) / 2);
      // Copy: the data may start at an odd offset, and Int16Array needs 2-byte alignment.
      const pcm = new Int16Array(n);
      for (let i = 0; i < n; i++) pcm[i] = view.getInt16(start + i * 2, true);
      return { pcm, sampleRate };
    }
    at = start + size + (size & 1);
  }
  throw new Error('WAV file has no data chunk');
}
