// Writes src/lib/api/limits.ts from openapi.json: for each request body's schema, the bounds the
// server checks on its fields (strings' maxLength/minLength, numbers' minimum/maximum), so the
// SPA's forms take their numbers from the server and copy none by hand. `npm run gen:types`
// runs it after openapi-typescript; `--check` exits 1 when the committed file differs.
//     node scripts/gen-limits.mjs [schema.json [limits.ts]] [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = join(root, 'openapi.json');
const TARGET = join(root, 'src', 'lib', 'api', 'limits.ts');
const BOUNDS = ['minLength', 'maxLength', 'minimum', 'maximum'];

/** The bounds of one property: on it, or on the non-null member of its anyOf (an optional field). */
function boundsOf(property) {
  const found = {};
  for (const part of [property, ...(property.anyOf ?? [])]) {
    for (const bound of BOUNDS) {
      if (part[bound] !== undefined) found[bound] = part[bound];
    }
  }
  return found;
}

/** The names of the component schemas that are some operation's request body. */
function requestSchemas(openapi) {
  const names = new Set();
  for (const operations of Object.values(openapi.paths)) {
    for (const operation of Object.values(operations)) {
      for (const media of Object.values(operation?.requestBody?.content ?? {})) {
        const ref = media.schema?.$ref;
        if (ref) names.add(ref.split('/').pop());
      }
    }
  }
  return [...names].sort();
}

/** Each operation's query parameters that have bounds, by "METHOD /path". */
function queryLimits(openapi) {
  const found = [];
  for (const [path, operations] of Object.entries(openapi.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const fields = (operation?.parameters ?? [])
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => [parameter.name, boundsOf(parameter.schema ?? {})])
        .filter(([, bounds]) => Object.keys(bounds).length > 0);
      if (fields.length > 0) found.push([`${method.toUpperCase()} ${path}`, fields]);
    }
  }
  return found.sort(([a], [b]) => (a < b ? -1 : 1));
}

/** The lines of one `name: { field: { bound: n } }` entry. */
function entry(name, fields) {
  const lines = [`  ${name}: {`];
  for (const [field, bounds] of fields) {
    const entries = BOUNDS.filter((b) => b in bounds).map((b) => `${b}: ${bounds[b]}`);
    lines.push(`    ${field}: { ${entries.join(', ')} },`);
  }
  lines.push('  },');
  return lines;
}

export function renderLimits(openapi) {
  const lines = [
    '// Written by `npm run gen:types` (scripts/gen-limits.mjs) from openapi.json: do not edit.',
    "// Each request body's fields and the bounds the server checks on them.",
    'export const LIMITS = {',
  ];
  for (const name of requestSchemas(openapi)) {
    const properties = openapi.components.schemas[name].properties ?? {};
    const fields = Object.keys(properties)
      .sort()
      .map((field) => [field, boundsOf(properties[field])])
      .filter(([, bounds]) => Object.keys(bounds).length > 0);
    if (fields.length > 0) lines.push(...entry(name, fields));
  }
  lines.push('} as const;', '', "// Each operation's query parameters and their bounds.");
  lines.push('export const QUERY_LIMITS = {');
  for (const [operation, fields] of queryLimits(openapi)) {
    lines.push(...entry(`'${operation}'`, fields));
  }
  lines.push('} as const;', '');
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [source = SOURCE, target = TARGET] = process.argv.slice(2).filter((a) => a !== '--check');
  const text = renderLimits(JSON.parse(readFileSync(source, 'utf8')));
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== text) {
      console.error(`${target} differs from ${source}: run \`npm run gen:types\``);
      process.exit(1);
    }
  } else {
    writeFileSync(target, text);
  }
}
