/**
 * Whisper models hark knows how to fetch, pinned by size and sha256.
 *
 * Files: whisper.cpp's published ggml conversions on Hugging Face (ggerganov/whisper.cpp, MIT).
 * sha256: the Git LFS object ids of those files, as pinned identically by several independent
 * projects (whisper.cpp's own models/README lists SHA-1s only). A model not in this table can still
 * be fetched by giving its sha256 explicitly; nothing is downloaded without a checksum to hold it to.
 */
export const DEFAULT_MODEL_BASE_URL = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main';

export interface CatalogEntry {
  name: string;
  bytes: number;
  sha256: string;
  note: string;
}

export const MODEL_CATALOG: Readonly<Record<string, CatalogEntry>> = {
  'tiny.en': { name: 'tiny.en', bytes: 77_704_715, sha256: '921e4cf8686fdd993dcd081a5da5b6c365bfde1162e72b08d75ac75289920b1f', note: 'English, f16, fastest' },
  'tiny.en-q5_1': {
    name: 'tiny.en-q5_1',
    bytes: 32_166_155,
    sha256: 'c77c5766f1cef09b6b7d47f21b546cbddd4157886b3b5d6d4f709e91e66c7c2b',
    note: 'English, 5-bit: the Pi 4 choice when speed matters most',
  },
  'tiny.en-q8_0': {
    name: 'tiny.en-q8_0',
    bytes: 43_550_795,
    sha256: '5bc2b3860aa151a4c6e7bb095e1fcce7cf12c7b020ca08dcec0c6d018bb7dd94',
    note: 'English, 8-bit',
  },
  'base.en': { name: 'base.en', bytes: 147_964_211, sha256: 'a03779c86df3323075f5e796cb2ce5029f00ec8869eee3fdfb897afe36c6d002', note: 'English, f16' },
  'base.en-q5_1': {
    name: 'base.en-q5_1',
    bytes: 59_721_011,
    sha256: '4baf70dd0d7c4247ba2b81fafd9c01005ac77c2f9ef064e00dcf195d0e2fdd2f',
    note: 'English, 5-bit: the default',
  },
  'base.en-q8_0': {
    name: 'base.en-q8_0',
    bytes: 81_781_811,
    sha256: 'a4d4a0768075e13cfd7e19df3ae2dbc4a68d37d36a7dad45e8410c9a34f8c87e',
    note: 'English, 8-bit',
  },
  // Multilingual (every language Whisper knows; detects which in the same pass): for a device whose
  // language.languages is not English alone. The 5-bit ones, the sizes a Pi runs.
  'tiny-q5_1': {
    name: 'tiny-q5_1',
    bytes: 32_152_673,
    sha256: '818710568da3ca15689e31a743197b520007872ff9576237bda97bd1b469c3d7',
    note: 'multilingual, 5-bit: fastest',
  },
  'base-q5_1': {
    name: 'base-q5_1',
    bytes: 59_707_625,
    sha256: '422f1ae452ade6f30a004d7e5c6a43195e4433bc370bf23fac9cc591f01a8898',
    note: 'multilingual, 5-bit: the choice for a device with several languages',
  },
};

export function modelFileName(name: string): string {
  return `ggml-${name}.bin`;
}
