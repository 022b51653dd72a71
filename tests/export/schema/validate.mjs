// Validate speedscope files against the file-format schema the speedscope
// package publishes (node_modules/speedscope/dist/release/file-format-schema.json)
// with ajv (JSON Schema draft-07, the schema's own $schema).
//
// usage: node validate.mjs FILE...   prints "ok FILE" or the errors; exits 1 if any file is invalid.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv from 'ajv';

const require = createRequire(import.meta.url);
const schemaPath = require.resolve('speedscope/dist/release/file-format-schema.json');
const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
const version = JSON.parse(readFileSync(require.resolve('speedscope/package.json'), 'utf8')).version;
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(schema);

let bad = 0;
for (const file of process.argv.slice(2)) {
  let data;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    console.log(`invalid ${file}: not JSON: ${e.message}`);
    bad++;
    continue;
  }
  if (validate(data)) {
    console.log(`ok ${file} (speedscope ${version} schema)`);
  } else {
    bad++;
    console.log(`invalid ${file} (speedscope ${version} schema):`);
    for (const e of validate.errors.slice(0, 20)) console.log(`  ${e.instancePath || '/'} ${e.message}`);
  }
}
process.exit(bad ? 1 : 0);
