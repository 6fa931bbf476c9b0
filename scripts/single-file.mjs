#!/usr/bin/env node
// Writes dist/chronograph.html: the whole visualizer in one self-contained HTML file
// (style sheet, favicon, wasm-bindgen glue and the wasm module inlined) that opens from
// the file system with a double-click and works offline.
//
//   node scripts/single-file.mjs [dist]      (scripts/build-web.sh runs it after the build)
//
// Why a second page: a browser refuses module scripts and fetch() from file:// pages
// ("blocked by CORS policy"), so dist/index.html needs a server. Here nothing is fetched:
// the glue runs as an inline module and the wasm bytes are handed to its init function.
// The wasm travels gzipped (base64 of gzip -9: ~40 % of the raw module's base64), and the
// page inflates it with the browser's own DecompressionStream, which works on file:// too.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = resolve(process.argv[2] ?? join(here, '..', 'dist'));
const read = (name, encoding) => readFileSync(join(dist, name), encoding);

const page = read('index.html', 'utf8');
const css = read('style.css', 'utf8');
const favicon = read('favicon.svg');
const glue = read('chronograph_web.js', 'utf8');
const wasm = read('chronograph_web_bg.wasm');

// The glue is an ES module whose last statement exports its init functions; inside one
// inline module the exports are plain bindings, so that statement goes and init is
// called by name. Fail loudly if a new wasm-bindgen changes the shape.
const exportLine = /^export \{ initSync, __wbg_init as default \};\s*$/m;
if (!exportLine.test(glue)) {
  throw new Error('single-file: the wasm-bindgen glue does not end with its usual export line');
}
if (/^import /m.test(glue)) {
  throw new Error('single-file: the glue imports other modules (snippets); inline them first');
}
const inlineGlue = glue
  .replace(exportLine, '')
  // Leftover `export class ...` declarations are valid in a module script but unused.
  .replace(/^export (class|function|const) /gm, '$1 ')
  // An HTML parser ends a <script> at the first "</script", wherever it appears.
  .replace(/<\/script/gi, '<\\/script');

const boot = `
const wasmGzipBase64 = "${gzipSync(wasm, { level: 9 }).toString('base64')}";
async function wasmBytes() {
  const text = atob(wasmGzipBase64);
  const gzipped = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) gzipped[i] = text.charCodeAt(i);
  const inflated = new Blob([gzipped]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(inflated).arrayBuffer());
}
wasmBytes().then((bytes) => __wbg_init({ module_or_path: bytes })).catch((err) => {
  const boot = document.getElementById('boot');
  boot.textContent = \`Chronograph could not start: \${err}\`;
  boot.classList.add('failed');
  console.error(err);
});`;

const iconHref = `data:image/svg+xml;base64,${favicon.toString('base64')}`;
// Replace the served page's links and scripts; keep its head and body otherwise.
let out = page
  .replace(/<link rel="icon"[^>]*>/, `<link rel="icon" href="${iconHref}" type="image/svg+xml">`)
  .replace(/<link rel="stylesheet"[^>]*>/, () => `<style>\n${css}\n</style>`)
  .replace(/<script>[\s\S]*?<\/script>\s*/, '')
  .replace(/<script type="module">[\s\S]*?<\/script>/, () => `<script type="module">\n${inlineGlue}\n${boot}\n</script>`);
if (!out.includes('__wbg_init({ module_or_path: bytes })')) {
  throw new Error('single-file: index.html has no module script to replace');
}
out = out.replace(
  /<!-- Entry of the visualizer[\s\S]*?-->/,
  '<!-- The visualizer in one file, written by scripts/single-file.mjs from dist/. -->',
);
writeFileSync(join(dist, 'chronograph.html'), out);
console.log(`single-file: dist/chronograph.html ${out.length} bytes`);
