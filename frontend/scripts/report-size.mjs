// Sums the gzipped size of the JavaScript the built index.html loads before anything else: its
// module entry scripts and their modulepreload links. Lazy route chunks are not counted.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const LIMIT_BYTES = 250 * 1000;
const BASE = '/static/';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');

const attribute = (tag, name) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`).exec(tag)?.[1];

const urls = new Set();
for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) {
  const src = attribute(tag, 'src');
  if (src && attribute(tag, 'type') === 'module') urls.add(src);
}
for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
  const href = attribute(tag, 'href');
  if (href && attribute(tag, 'rel') === 'modulepreload') urls.add(href);
}
if (urls.size === 0) {
  console.error('report-size: dist/index.html loads no JavaScript module');
  process.exit(1);
}

const kB = (bytes) => `${(bytes / 1000).toFixed(2)} kB`;
let total = 0;
for (const url of urls) {
  if (!url.startsWith(BASE)) {
    console.error(`report-size: ${url} is not under the base ${BASE}`);
    process.exit(1);
  }
  const file = join(dist, url.slice(BASE.length));
  if (!existsSync(file)) {
    console.error(`report-size: ${url} is not in dist/`);
    process.exit(1);
  }
  const gzipped = gzipSync(readFileSync(file), { level: 9 }).length;
  total += gzipped;
  console.log(`  ${relative(dist, file).padEnd(48)} ${kB(gzipped).padStart(12)} gzip`);
}

console.log(`Initial JS (gzip): ${kB(total)} of ${kB(LIMIT_BYTES)} allowed`);
if (total > LIMIT_BYTES) {
  console.error('report-size: the initial JavaScript is over budget');
  process.exit(1);
}
