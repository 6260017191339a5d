// The floor's reads from Node (run as its own process by cold.ts): the same statements through
// better-sqlite3 with the page cache a status's one-pass connection sets, each row taken into
// JavaScript as it is stepped (text decoded into strings) and dropped. What a status of this home
// cannot go below in Node, before its own work: Node's start, loading the binding, and the rows.
import Database = require('better-sqlite3');
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ONE_PASS_PAGE_CACHE_KIB } from '../server/hermes/store/stateStore';

const [dbFile, sqlFile] = process.argv.slice(2);
const binding = path.resolve(__dirname, '../../dist/native/better_sqlite3.node');
const db = new Database(dbFile!, { readonly: true, ...(fs.existsSync(binding) ? { nativeBinding: binding } : {}) });
db.pragma(`cache_size = -${ONE_PASS_PAGE_CACHE_KIB}`);
let values = 0;
for (const statement of fs.readFileSync(sqlFile!, 'utf8').split(';')) {
  if (!statement.trim()) continue;
  for (const row of db.prepare(statement).raw().iterate() as Iterable<unknown[]>) values += row.length;
}
db.close();
process.stdout.write(`${values}\n`);
