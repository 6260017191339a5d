// The floor's reads from Node (run as its own process by cold.ts): the same statements through
// better-sqlite3, as the lens opens state.db, each value taken into JavaScript (text decoded into
// strings) and dropped. What a status of this home cannot go below in Node, before its own work:
// Node's start, loading the binding, and the rows.
import Database = require('better-sqlite3');
import * as fs from 'node:fs';
import * as path from 'node:path';

const [dbFile, sqlFile] = process.argv.slice(2);
const binding = path.resolve(__dirname, '../../dist/native/better_sqlite3.node');
const db = new Database(dbFile!, { readonly: true, ...(fs.existsSync(binding) ? { nativeBinding: binding } : {}) });
let values = 0;
for (const statement of fs.readFileSync(sqlFile!, 'utf8').split(';')) {
  if (!statement.trim()) continue;
  for (const row of db.prepare(statement).raw().iterate() as Iterable<unknown[]>) values += row.length;
}
db.close();
process.stdout.write(`${values}\n`);
