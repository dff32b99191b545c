// Bundles the front end into app/static/dist with hashed names and writes esbuild's metafile
// (meta.json), which the server reads to write its script and style tags. `node static_src/build.mjs`.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';

const outdir = 'app/static/dist';
const require = createRequire(import.meta.url);

// hls.js's ESM build runs its transmuxing worker only from a file: ship it with a hashed name.
const workerSource = require.resolve('hls.js/dist/hls.worker.js');
const workerHash = createHash('sha256').update(readFileSync(workerSource)).digest('hex').slice(0, 8).toUpperCase();
const workerName = `hls.worker-${workerHash}.js`;

// hls.js from its TypeScript sources, which its package ships, with the features the player uses on (its own build
// switches, as its light build sets them): alternate audio (the voices' renditions), variable substitution, and
// HEVC/AC-3 in MPEG-2 TS. Off: hls.js's subtitles and CEA-608 captions (the player draws the master JSON's WebVTT
// itself), EME/DRM, CMCD, content steering, interstitials, I-frame trick play and the Media Capabilities checks.
// 108 kB brotli instead of the full build's 152 kB, and a third less to parse before the first frame. The packages
// it bundles are pinned in package.json to the versions its own package.json names (tests/unit/test_bundle_budget).
const hlsPackage = join(require.resolve('hls.js/package.json'), '..');
const HLS_FEATURES = {
  __VERSION__: JSON.stringify(JSON.parse(readFileSync(join(hlsPackage, 'package.json'), 'utf8')).version),
  __USE_ALT_AUDIO__: 'true',
  __USE_VARIABLE_SUBSTITUTION__: 'true',
  __USE_M2TS_ADVANCED_CODECS__: 'true',
  __USE_SUBTITLES__: 'false',
  __USE_EME_DRM__: 'false',
  __USE_CMCD__: 'false',
  __USE_CONTENT_STEERING__: 'false',
  __USE_INTERSTITIALS__: 'false',
  __USE_IFRAMES__: 'false',
  __USE_MEDIA_CAPABILITIES__: 'false',
  __IN_WORKER__: 'false', // the transmuxer runs in the worker file copied above
};
// One seam hls.js does not export, exported here on purpose: its worker store (src/demux/inject-worker.ts), so that the
// engine (static_src/player/engine.ts) starts the transmuxer's worker when it creates hls.js, and hls.js, which starts it
// only once the first fragment has arrived, finds it running (the same worker, by the same path). Starting and
// compiling the worker was the longest step between the first fragment and the first frame.
const hlsEntry = join(hlsPackage, 'src', 'hls.ts');
const HLS_SEAM = "\nexport { loadWorker, removeWorkerFromStore } from './demux/inject-worker';\n";
const hlsFromSource = {
  name: 'hls-from-source',
  setup(build) {
    build.onResolve({ filter: /^hls\.js$/ }, () => ({ path: hlsEntry }));
    build.onLoad({ filter: /[\\/]hls\.js[\\/]src[\\/]hls\.ts$/ }, (args) =>
      args.path === hlsEntry ? { contents: readFileSync(args.path, 'utf8') + HLS_SEAM, loader: 'ts' } : undefined,
    );
  },
};

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
copyFileSync(workerSource, `${outdir}/${workerName}`);

const options = {
  entryPoints: ['static_src/player.tsx', 'static_src/demo.ts', 'static_src/styles/shell.css'],
  outdir,
  bundle: true,
  splitting: true, // hls.js becomes a chunk of its own, loaded by dynamic import()
  format: 'esm',
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  assetNames: 'media/[name]-[hash]',
  minify: true,
  sourcemap: 'linked',
  target: ['chrome87', 'firefox78', 'safari15'],
  jsx: 'automatic',
  define: {
    'process.env.NODE_ENV': '"production"',
    __HLS_WORKER__: JSON.stringify(workerName),
    // Sentry (the lazy static_src/reporting/sentry.ts): no debug logging; no inline blob: compression worker for
    // session replay, which runs without one (nothing for the CSP's worker-src); no replay recording inside iframes
    // or shadow DOM, which the player has none of (Sentry's documented tree-shaking flags).
    __SENTRY_DEBUG__: 'false',
    __SENTRY_EXCLUDE_REPLAY_WORKER__: 'true',
    __RRWEB_EXCLUDE_IFRAME__: 'true',
    __RRWEB_EXCLUDE_SHADOW_DOM__: 'true',
    ...HLS_FEATURES,
  },
  plugins: [hlsFromSource],
  metafile: true,
  logLevel: 'warning',
};

// esbuild makes a chunk for every distinct set of entry points (dynamic imports included) that share modules, so the
// modules the entry shares with one lazy chunk or another came as five small files, each one more request before the
// entry could run (on HTTP/1.1, six connections a host, that pushed the hls.js chunk into a second round trip). A
// first pass finds them; the second has every lazy module of ours import all of them, which gives them one set of
// importers and so one chunk. Nothing is loaded twice: the entry has loaded that chunk before any lazy one needs it.
const probe = await esbuild.build({ ...options, write: false });
const entryOutput = Object.values(probe.metafile.outputs).find((output) => output.entryPoint === 'static_src/player.tsx');
const sharedModules = entryOutput.imports
  .filter((record) => record.kind === 'import-statement')
  .flatMap((record) => Object.keys(probe.metafile.outputs[record.path].inputs));
const lazyModules = new Set(
  Object.values(probe.metafile.outputs)
    .map((output) => output.entryPoint)
    .filter((entry) => entry?.startsWith('static_src/') && !options.entryPoints.includes(entry)),
);
const importShared = {
  name: 'import-shared',
  setup(build) {
    build.onLoad({ filter: /static_src\/.*\.tsx?$/ }, (args) => {
      const path = relative(process.cwd(), args.path);
      if (!lazyModules.has(path)) return undefined;
      const imports = sharedModules.map((module) => `import ${JSON.stringify(resolve(module))};`).join('\n');
      return { contents: `${readFileSync(args.path, 'utf8')}\n${imports}\n`, loader: path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};
const result = await esbuild.build({ ...options, plugins: [...options.plugins, importShared] });
// The down-mix audio worklet lives at a fixed address (/processing/down-mix-processor.js): no hash, no imports.
await esbuild.build({
  entryPoints: ['static_src/processing/down-mix-processor.ts'],
  outfile: `${outdir}/processing/down-mix-processor.js`,
  bundle: true,
  format: 'iife',
  minify: true,
  target: ['es2020'],
  logLevel: 'warning',
});
// /lib.js, the publisher's script (static_src/embed/lib.ts): a classic script at a fixed address, window.PlayerHost.
await esbuild.build({
  entryPoints: ['static_src/embed/lib.ts'],
  outfile: `${outdir}/lib.js`,
  bundle: true,
  format: 'iife',
  globalName: 'PlayerHost',
  minify: true,
  target: ['es2020', 'chrome87', 'firefox78', 'safari15'],
  logLevel: 'warning',
});
writeFileSync(`${outdir}/meta.json`, JSON.stringify(result.metafile));

// V8's explicit compile hint for React with react-dom and the interface: every function is compiled eagerly instead of
// lazily on the main thread at first call, which made React's first render a long task. Not for the entry (small, runs
// at once) nor for hls.js: its chunk comes by modulepreload, and with the hint Chromium compiled all of it when the
// entry imported it, on the main thread (113 ms from the import to the module, against 6 ms without; the film's first
// frame 685 -> 518 ms median, tests/bench), where hls.js uses a fraction of its functions before the first frame.
const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';
for (const [file, info] of Object.entries(result.metafile.outputs)) {
  const entry = info.entryPoint ?? '';
  const react = Object.keys(info.inputs).some((input) => input.includes('node_modules/react-dom/'));
  const big = entry.endsWith('ui/mount.tsx') || react;
  if (!file.endsWith('.js') || !big) continue;
  writeFileSync(file, COMPILE_HINT + readFileSync(file, 'utf8'));
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
  map.mappings = `;${map.mappings}`; // the code moved down one line
  writeFileSync(`${file}.map`, JSON.stringify(map));
}

// Precompressed once here at the highest levels (brotli 11, gzip 9), served as they are by /assets: no request ever
// waits for a compressor, and a CDN in front can take the same files.
for (const entry of readdirSync(outdir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !/\.(js|css)$/.test(entry.name)) continue;
  const file = join(entry.parentPath, entry.name);
  const body = readFileSync(file);
  writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
}

const sizes = Object.entries(result.metafile.outputs)
  .filter(([file]) => !file.endsWith('.map'))
  .map(([file, info]) => `${String(info.bytes).padStart(8)}  ${file}`);
console.log(`built ${outdir}:\n${sizes.join('\n')}`);
