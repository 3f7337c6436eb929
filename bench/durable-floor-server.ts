/**
 * The second baseline of bench:pings: the least a server can do that durably records each ping
 * so that its stream can be read back. `node:http` and one SQLite row per request, in a WAL log
 * with a `(stream, revision)` index, one IMMEDIATE transaction per turn of the event loop for
 * every request that arrived meanwhile, `synchronous = FULL`, each answered after its commit.
 *
 * No hashing, authentication, decision, retention or read model: what it costs a ping on this
 * machine is what Vigil's log alone could not go below, so the gap between it and the bare server
 * is the part of the target that no work on Vigil's own code can close.
 *
 * Run by bench/pings.ts: `PORT`, `HOST`, and `FLOOR_DB` (the file to write; made anew).
 */
import Database from 'better-sqlite3';
import { createServer } from 'node:http';

const db = new Database(process.env['FLOOR_DB']);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`CREATE TABLE log (
  position INTEGER PRIMARY KEY, stream TEXT NOT NULL, revision INTEGER NOT NULL, data TEXT NOT NULL,
  UNIQUE (stream, revision))`);
const insert = db.prepare<[string, number, string]>('INSERT INTO log (stream, revision, data) VALUES (?, ?, ?)');

interface Pending {
  stream: string;
  revision: number;
  data: string;
  answer: () => void;
}

const revisions = new Map<string, number>();
let pending: Pending[] = [];
const writeAll = db.transaction((group: Pending[]) => {
  for (const p of group) insert.run(p.stream, p.revision, p.data);
});

function commit(): void {
  const group = pending;
  pending = [];
  writeAll.immediate(group);
  for (const p of group) p.answer();
}

// About the size of a PingReceived's data as Vigil's log holds it.
const PADDING = 'x'.repeat(500);

createServer((request, response) => {
  const url = request.url ?? '/';
  const stream = `pings-${url.slice(url.lastIndexOf('/') + 1)}`;
  const revision = (revisions.get(stream) ?? -1) + 1;
  revisions.set(stream, revision);
  const data = JSON.stringify({ received_at: new Date().toISOString(), user_agent: request.headers['user-agent'] ?? null, padding: PADDING });
  if (pending.length === 0) setImmediate(commit);
  pending.push({
    stream,
    revision,
    data,
    answer: () => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(`{"ok":true,"revision":${revision}}`);
    },
  });
}).listen(Number(process.env['PORT']), process.env['HOST']);
