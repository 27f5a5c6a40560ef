/**
 * hark's layers, written once (docs/architecture.md, "Layers"). A module may import from its own
 * layer's folder and from any layer below it, never from one above; no import circles. `make test`
 * runs this (npm run -s deps:check). A rare exception is listed in ALLOWED_UP, each with the reason.
 *
 * Bottom to top. Folders on one line are peers: they may not import each other unless listed below them.
 */
const LAYERS = [
  ['core'],
  ['language'],
  ['audio'],
  ['echo'],
  ['vad'],
  ['wyoming'],
  ['store'],
  ['stt'],
  ['speech'],
  ['command'],
  ['turn'],
  ['intent'],
  ['ha/conversation'],
  ['path'],
  ['fleet', 'ha/satellite', 'gpio', 'debug', 'replay', 'picking'],
  ['config'],
  ['doctor'],
  ['daemon'],
  ['commands'],
  ['cli.ts'],
];

/**
 * Imports that may run up a layer (at most five: docs/architecture.md): { from: a file under src/, to: the file it
 * imports, why }. None today.
 */
const ALLOWED_UP = [];

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const pathOf = (f) => (f.endsWith('.ts') ? `^src/${esc(f)}$` : `^src/${esc(f)}/`);

const forbidden = [
  {
    name: 'no-circular',
    severity: 'error',
    comment: 'An import circle: two modules that need each other are one module, or a seam is missing.',
    from: {},
    to: { circular: true },
  },
];
LAYERS.forEach((layer, i) => {
  const above = LAYERS.slice(i + 1).flat();
  const peers = layer.length > 1 ? layer : [];
  for (const f of layer) {
    const up = [...above, ...peers.filter((p) => p !== f)];
    if (!up.length) continue;
    const rule = (name, from, to) => ({
      name,
      severity: 'error',
      comment: `src/${f} sits below ${up.join(', ')}: it may not import from them (docs/architecture.md, "Layers").`,
      from,
      to,
    });
    const exceptions = ALLOWED_UP.filter((a) => new RegExp(pathOf(f)).test(a.from));
    forbidden.push(rule(`layer-${f.replace(/[/.]/g, '-')}`, { path: pathOf(f), pathNot: exceptions.map((a) => `^${esc(a.from)}$`) }, { path: up.map(pathOf) }));
    // An allowed file may import its one named target upwards, nothing else.
    for (const a of exceptions)
      forbidden.push(rule(`layer-${f.replace(/[/.]/g, '-')}-except`, { path: `^${esc(a.from)}$` }, { path: up.map(pathOf), pathNot: [`^${esc(a.to)}$`] }));
  }
});

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
